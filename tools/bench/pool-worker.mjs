// Worker threads start without the parent's TypeScript loader: register tsx
// here, as bin/compaction-playground.mjs does, then load the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./pool-worker.ts');
