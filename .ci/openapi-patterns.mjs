// Compiles every schema "pattern" of the OpenAPI documents given as
// arguments as an ECMA-262 regular expression, with and without the
// "u" flag, as JavaScript validators and generated clients do. The Go
// test apitest.CheckPatterns compiles the same patterns as RE2.
// Usage: node .ci/openapi-patterns.mjs DOC.json...
import { readFileSync } from "node:fs";

let checked = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
	const patterns = new Set();
	const walk = (v) => {
		if (Array.isArray(v)) {
			v.forEach(walk);
		} else if (v && typeof v === "object") {
			for (const [k, child] of Object.entries(v)) {
				if (k === "pattern" && typeof child === "string") {
					patterns.add(child);
				} else {
					walk(child);
				}
			}
		}
	};
	walk(JSON.parse(readFileSync(file, "utf8")));
	if (patterns.size === 0) {
		console.error(`${file}: no "pattern": nothing was checked`);
		failed++;
	}
	for (const p of patterns) {
		for (const flags of ["", "u"]) {
			try {
				new RegExp(p, flags);
				checked++;
			} catch (e) {
				console.error(`${file}: pattern ${JSON.stringify(p)} (flags "${flags}"): ${e.message}`);
				failed++;
			}
		}
	}
}
console.log(`openapi patterns: ${checked} compiled as ECMA-262, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
