import { Fragment } from 'react';

/**
 * A tool name (or a `key=value` list of them) with break chances after its
 * separators (`_ . / : , = -`): a narrow screen wraps it there, never
 * mid-word. The text is unchanged, so it is still the accessible name.
 */
export function BreakableName({ name }: { name: string }) {
  const parts = name.split(/(?<=[_./:,=-])/);
  return (
    <>
      {parts.map((part, index) => (
        // The parts of one name never move: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
