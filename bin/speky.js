#!/usr/bin/env node
import "../dist/entry/speky.js";
