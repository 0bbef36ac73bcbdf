import { READINGS } from '../core/compaction/readings.ts';
import { IMPORT_FORMATS } from '../core/import/import.ts';

export const USAGE = `Usage: compaction-playground <command> [options]

Every FILE may be a JP events.json or any transcript the playground imports
(Claude Code, Codex CLI, Gemini CLI, OpenCode, OpenAI Chat Completions or
Responses, Anthropic Messages), detected from its content; every command
takes --from FORMAT to force one (${IMPORT_FORMATS.join(', ')}).

Commands:
  import [--from FORMAT] [--encoding storage|plain] [--agent ID] FILE|-
      The transcript as JP's events.json (storage form, as JP saves it,
      unless --encoding plain); what could not be mapped is listed on
      standard error. --agent ID imports an inline subagent of a Claude
      Code session (its sidechain lines; the note lists their ids) instead
      of the main conversation.
  project [--encoding auto|storage|plain] [--view provider|stream] [--sanitize]
          [--reading KEY=VALUE]... FILE|-
      The projected elements as a JSON array, in the input's encoding.
      provider (default): what the model is sent; stream: the whole projected
      stream before the visibility filter. --sanitize repairs the stream first.
  sanitize [--encoding auto|storage|plain] FILE|-
      The stream after JP's repair before sending.
  compact --config FILE.toml [--compact SPEC]... [--now TIMESTAMP] [--encoding ...]
          [--dry-run] [--reading KEY=VALUE]... FILE|-
      The whole events.json with the new compaction events appended.
      --compact SPEC (repeatable) adds a rule in JP's -k DSL (r, t[=MODE],
      s; ,over=SIZE under base=2026-09; :RANGE): specs alone replace the
      TOML's rules, and --compact '' runs the TOML's rules first. A spec
      that does not parse, or an invocation JP main refuses (a summary
      overlapping authored text, a blank summary.text), exits 2 and writes
      nothing.
      --dry-run prints JP's dry-run lines instead ("Would compact turns
      A..=B", stored 0-based turns, one per new compaction; under
      base=2026-09 with what it does and, for a rule with a threshold, the
      items it catches) and writes nothing.
  reset [--index K] [--encoding ...] FILE|-
      The stream without its compaction events (or without the K-th, 1-based).
  report --config FILE.toml [--now TIMESTAMP] [--tokenizer o200k|cl100k|chars]
         [--no-sanitize] [--json | --by-conversation] [--what-if]
         [--reading KEY=VALUE]... FILE|FOLDER...
      Per tool: calls, request and response tokens before and after, savings.
      --by-conversation adds a line per conversation, titled from its
      metadata.json or its first user message (readable output only); a
      file in a folder that does not read is a line with its error.
      --what-if prints instead, per tool, the figures under each of the six
      hint choices (inherit, keep, strip, strip-requests, strip-responses,
      omit), the one in force marked.
      A FOLDER stands for the conversations in it: JP conversation folders
      and session files (*.jsonl, *.json) at any depth, such as a Claude
      Code projects folder (subagents listed under their session, those in
      subagents/ files and those written inline as sidechain lines) or a
      Codex sessions tree; a file there that does not read is reported on
      standard error and left out.
  recommend --config FILE.toml [--now TIMESTAMP] [--tokenizer ...] [--no-sanitize]
            [--json] FILE|FOLDER...
      A hint per tool with the reason and the saving measured with it applied,
      the total with all applied, and the config with the hints set.
  replay [--config FILE.toml] [--model NAME] [--price input=…,output=…[,write=…,read=…,ttl=…,min=…]]
         [--schedule none|stored|every-turn|auto|idle] [--tokenizer ...] [--no-sanitize]
         [--calibration auto|recorded|runtime|user|none] [--prefix TOKENS]
         [--json] [--reading KEY=VALUE]...
         [--policy anthropic-context-editing|anthropic-compaction|claude-code|codex|openai-agents|gemini-cli|jp]
         [--set KEY=VALUE]... [--compare] [--sweep trigger] [--by-conversation]
         FILE|FOLDER...
      What the conversation cost, request by request, under a schedule of
      compactions (stored by default) with prompt caching: first the bill the
      transcript recorded, then per request the prompt (the runtime's
      invisible prefix included), cache read and write, output and cost
      beside the baseline (no compaction), then the totals, every schedule's
      total and, per tool, the cost under each hint. A FOLDER sums its
      conversations, a row each. The model is the one the transcript
      recorded unless --model names one; --price sets prices over it (keys
      left out keep the model's). The replay is calibrated on the recorded
      usage (--calibration recorded), else the runtime's defaults (runtime),
      your invisible prefix (--prefix, user), or the file alone (none).
      First-order: the model's answers are taken as unchanged. Models and
      the cache model: docs/replay.md. --policy replays a runtime's own
      clearing instead (its parameters by --set; --json adds "policy");
      --compare prints every policy at its defaults and with the config's
      hints mapped, one table: docs/runtime-policies.md. --sweep trigger
      answers when to compact: auto replayed with its trigger at prompts
      from 10,000 tokens to 95 % of the window, one line each, the cheapest
      against the session as it ran (each is --schedule auto with
      [conversation.compaction.auto] trigger_ratio set to it). Without --config
      the config is empty: no rules or hints of its own, so every-turn and
      idle run JP's built-in default rule, and auto its own defaults.
      --by-conversation prints the folder in money instead: per conversation
      its day (the UTC date of its first request), what it cost (its
      recorded bill where the file recorded every request, else stored
      modelled, labelled) and its cheapest alternative; per day; the total,
      and the one JP schedule cheapest over the whole folder with its saving
      against the sessions as they ran (--json: docs/replay.md).

  export --target anthropic|langchain-py|langchain-js|vercel|openai-agents|codex|claude-code
         --config FILE.toml [--now TIMESTAMP] [--tokenizer ...] [--no-sanitize]
         [--set KEY=VALUE ...] [--json] [FILE|-]
      The config's hints as the framework's own configuration, on standard
      output; on standard error, per tool "exported as ..." or "not
      expressible in ...: nearest is ...", and, with FILE, the saving with
      the playground's hints and with the nearest ones, and the runtime's own
      clearing replayed with what the export writes. codex and claude-code
      write the runtime's own settings (Codex's config.toml keys, Claude
      Code's settings.json) from their replay policy's parameters, given as
      replay --set takes them. --json prints all of it as one JSON object
      instead.

Every command takes --reading KEY=VALUE (repeatable). base chooses which JP
the playground reads, projects and writes like: 2026-09 is JP main (the
default), 2026-08 the pinned JP 4c1c39f1. The others switch one of D17's
open points from the spec's ruling (the first value) to its alternative:
${READINGS.map((info) => `  ${info.key}=${info.values.map((v) => v.value).join('|')}  (${info.section}) ${info.question}`).join('\n')}

Every command takes --output FILE to write to FILE instead of standard output,
where the shell's > could write, and without losing data. A regular file (or
a new one) is written only when the command succeeds, to a temporary file
beside it renamed over it with its mode and owner, so --output may name the
input file; a symbolic link is followed, and stays a link. A file with other
hard links, or whose owner a new file would not keep, is written over in
place instead, still only on success. A pipe or a character device
(/dev/null, /dev/stdout on a terminal) is written as the output comes. A
folder, a socket, a block device, a missing folder and what this user may not
write (as > refuses it; root may write a read-only file, as with >) are
refused, naming FILE, before the command runs. A command interrupted while it
runs leaves FILE as it was.

Exit codes: 0 success, 2 bad input or arguments, 1 internal error or an output
that cannot be written. A closed
pipe (| head, or the reader of an --output pipe) ends the command quietly.
`;
