// Progressive enhancements only: every page works without this file.
"use strict";

// A cover whose host no longer answers shows the neutral placeholder
// instead of a broken image.
function useFallback(img) {
  const fallback = img.dataset.fallback;
  if (fallback && img.getAttribute("src") !== fallback) {
    img.src = fallback;
  }
}

document.querySelectorAll("img[data-fallback]").forEach((img) => {
  if (img.complete && img.naturalWidth === 0) {
    useFallback(img);
  } else {
    img.addEventListener("error", () => useFallback(img), { once: true });
  }
});
