// Package browsertest drives a real headless Chromium through the whole
// clip service: the admin console flows and the public pages, at desktop
// and phone width, with a screenshot of every page; and it fetches the
// movie snapshot, which the browser must decode whole. The tests skip when
// no Chromium is installed (apt-get install chromium), and fail then under
// CI (testenv).
package browsertest
