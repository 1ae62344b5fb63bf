#!/usr/bin/env node
// First a module of its own, evaluated before the command line's modules load (dist/cli/prestart.js).
await import("../dist/cli/prestart.js");
await import("../dist/cli/main.js");
