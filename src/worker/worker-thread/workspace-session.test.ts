import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getToolRowKey, type Report } from '../../core/counting/report.ts';
import { GOOD_CONFIG, GOOD_STREAM } from '../../test/bad-input-cases.ts';
import { TWO_RULES, toolTurnsStream } from '../../test/interacting-hints.ts';
import { runCli } from '../../test/run-cli.ts';
import type { WorkspaceSettings } from '../shared/workspace-protocol.ts';
import { createWorkspaceHandlers } from './workspace-session.ts';

// Under 13.1 "apply" xtool's hint makes the reasoning-only compaction win each turn,
// which leaves ytool and ztool uncompacted: a figure no table lookup can give.
const HINTED = `${TWO_RULES}\n[conversation.tools.xtool]\ncompaction = "omit"\n`;
const stream = (tools: readonly string[]) => JSON.stringify(toolTurnsStream(tools));

describe('workspace session under a reading where hints interact', () => {
  it('gives each conversation the figures report --reading no-tool-calls=apply gives, after a hint edit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workspace-apply-'));
    const texts = [stream(['xtool', 'ytool']), stream(['ytool', 'xtool', 'ztool'])];
    const paths = texts.map((text, i) => {
      const path = join(dir, `c${i}.json`);
      writeFileSync(path, text);
      return path;
    });
    writeFileSync(join(dir, 'hinted.toml'), HINTED);
    // Expected values: the CLI's report on each file with the hint set.
    const expected: Report[] = [];
    for (const path of paths) {
      const cli = await runCli([
        'report',
        '--config',
        join(dir, 'hinted.toml'),
        '--reading',
        'no-tool-calls=apply',
        '--tokenizer',
        'chars',
        '--json',
        path,
      ]);
      expect(cli.code).toBe(0);
      expected.push(JSON.parse(cli.stdout) as Report);
    }
    // The hint holds the turn for xtool, so ytool keeps everything (the tables' row would say 94).
    expect(expected[0]?.tools.find((row) => row.name === 'ytool')?.saved.tokens).toBe(0);

    const session = createWorkspaceHandlers();
    const settingsFor = (configText: string): WorkspaceSettings => ({
      configText,
      encoding: 'auto',
      now: null,
      view: 'sanitized',
      tokenizer: 'chars',
      readings: { noToolCalls: 'apply' },
    });
    const count = async (settings: WorkspaceSettings) => {
      session.clear();
      for (const [index, text] of texts.entries()) {
        const analyzed = await session.analyze(
          { index, events: new Blob([text]), metadata: null, name: `c${index}.json` },
          settings,
        );
        if (!analyzed.ok) throw new Error(analyzed.message);
        session.hold(index, analyzed);
      }
    };

    await count(settingsFor(TWO_RULES));
    // The hint edit: no table lookup can answer it, so the folder is counted again.
    const edited = settingsFor(HINTED);
    expect(session.evaluate(edited).status).toBe('stale');
    await count(edited);
    const result = session.evaluate(edited);
    if (result.status !== 'ok') throw new Error(`evaluation ${result.status}`);
    for (const [index, report] of expected.entries()) {
      const figures = result.conversations.find((c) => c.index === index)?.figures;
      expect(figures?.before).toBe(report.totals.before.tokens);
      expect(figures?.after).toBe(report.totals.after.tokens);
      for (const row of report.tools) {
        expect(figures?.tools[getToolRowKey(row.name)]?.saved).toBe(row.saved.tokens);
      }
    }
    expect(result.report.totals.after.tokens).toBe(
      expected.reduce((sum, report) => sum + report.totals.after.tokens, 0),
    );
    expect(result.report.totals.saved.tokens).toBe(174 + 174);
    // Counted for these settings, the same evaluation answers again (no loop).
    expect(session.evaluate(edited).status).toBe('ok');
  });
});

describe('workspace titles', () => {
  it('caps a 5 MB metadata.json title to 80 characters, as the CLI’s --by-conversation rows (issue 24)', async () => {
    const session = createWorkspaceHandlers();
    const analyzed = await session.analyze(
      {
        index: 0,
        events: new Blob([GOOD_STREAM]),
        metadata: new Blob([JSON.stringify({ title: 'T'.repeat(5_000_000) })]),
        name: 'events.json',
      },
      {
        configText: GOOD_CONFIG,
        encoding: 'auto',
        now: null,
        view: 'sanitized',
        tokenizer: 'chars',
        readings: {},
      },
    );
    // 79 characters of the title and "…".
    expect(analyzed.title).toBe(`${'T'.repeat(79)}…`);
  });
});
