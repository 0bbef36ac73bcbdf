/**
 * The shape of the corpus the generator draws from: its own module, so the
 * measured profile (`corpus-profile.ts`) and the generator (`synthetic.ts`)
 * both import it without importing each other.
 */

/** Sizes or counts at the 0th, 5th, …, 100th percentile (21 values, nearest rank). */
export type Quantiles = number[];

/** How one argument is shaped: `s` string, `n` number, `b` boolean, `as` strings, `ao:k1,k2` objects. */
export type ArgumentShape = string;

/** One tool as the corpus calls it. */
export interface ToolProfile {
  name: string;
  /** Requests over the corpus: the tool's weight in the mix. */
  calls: number;
  /** Share of its responses with `is_error: true` (3 decimals). */
  errorRate: number;
  /** Share of its calls followed by an inquiry, as JP asks before applying a patch (3 decimals). */
  inquiryRate: number;
  /** Its most common argument keys, in stored order, each with its shape. */
  arguments: [string, ArgumentShape][];
  /** Characters of the arguments as compact JSON (what is counted), decoded. */
  requestChars: Quantiles;
  /** Characters of the response content, decoded. */
  responseChars: Quantiles;
}

/** The corpus's shape: what the generator draws from. */
export interface CorpusProfile {
  conversations: number;
  eventsPerConversation: Quantiles;
  /** Per turn: assistant steps that call tools. */
  callStepsPerTurn: Quantiles;
  /** Per such step: the calls made together before their responses. */
  callsPerStep: Quantiles;
  /** Per such step: messages before the calls. */
  messagesPerStep: Quantiles;
  /** Share of such steps that open with reasoning (3 decimals). */
  stepReasoningRate: number;
  /** Per turn: messages after the last response. */
  finalMessages: Quantiles;
  /** Share of turns whose final step opens with reasoning (3 decimals). */
  finalReasoningRate: number;
  chatRequestChars: Quantiles;
  messageChars: Quantiles;
  reasoningChars: Quantiles;
  /** Share of reasoning events carrying a provider signature in metadata (3 decimals). */
  signatureRate: number;
  signatureChars: Quantiles;
  inquiryChars: Quantiles;
  /** Characters of the first `config_delta` as JP writes it (pretty JSON). */
  configDeltaChars: Quantiles;
  /** Sorted by calls, most first, then by name. */
  tools: ToolProfile[];
}
