#!/usr/bin/env node
import "../dist/cli/bundle/main.js";
