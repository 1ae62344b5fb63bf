// Preloaded into a child under test (node --require): at exit, writes the process's peak
// resident set size in kB to the file named by SPEKY_TEST_RSS_FILE, so that a test can assert
// on the real binary's memory. An abort (out of memory) writes nothing, which fails the test.
const fs = require("node:fs");
const file = process.env.SPEKY_TEST_RSS_FILE;
if (file) process.on("exit", () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
