/** The default example's input and figures, computed at build time (tools/build/first-figures-plugin.ts). */
declare module 'virtual:first-figures' {
  import type { PlaygroundFigures, PlaygroundInput } from '../core/playground/types.ts';

  const firstFigures: { input: PlaygroundInput; figures: PlaygroundFigures };
  export default firstFigures;
}
