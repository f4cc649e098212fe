#!/usr/bin/env bun
import { processIO } from './io.ts';
import { runCli } from './program.ts';
import { standaloneSession } from './session.ts';

process.exitCode = await runCli(process.argv.slice(2), processIO(), standaloneSession());
