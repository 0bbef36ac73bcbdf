import { chromium } from 'playwright';
import { readFileSync } from 'node:fs';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await b.newPage({ viewport: { width: 1280, height: 800 } });
const data = readFileSync(process.argv[2]).toString('base64');
await p.setContent(`<body style="margin:0"><img src="data:image/jpeg;base64,${data}" width=1280 height=800></body>`);
await p.screenshot({ path: process.argv[3] });
await b.close();
