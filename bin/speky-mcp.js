#!/usr/bin/env node
import "../dist/mcp/main.js";
