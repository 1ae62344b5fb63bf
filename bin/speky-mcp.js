#!/usr/bin/env node
import "../dist/commands/mcp.js";
