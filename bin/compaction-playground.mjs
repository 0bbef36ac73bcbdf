#!/usr/bin/env node
// The package's command: runs the TypeScript CLI through tsx's loader, so the
// CLI and the browser share the very same core sources.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
