/**
 * The "D17 readings" control: one button in the header that opens a panel
 * with a radio group per open question of D17, each value named and
 * explained in one sentence (from readings.ts, their one home). The
 * button's text says how many readings are off the spec's rulings.
 */
import {
  getChangedReadings,
  READINGS,
  type ReadingName,
  type Readings,
} from '../../core/compaction/readings.ts';
import { Popover, usePopoverState } from '../share/Popover.tsx';
import './readings.css';

/** Props of {@link ReadingsPanel}. */
export interface ReadingsPanelProps {
  readings: Readings;
  onChange: <K extends ReadingName>(name: K, value: Readings[K]) => void;
  onReset: () => void;
}

/** The radio groups, one per reading: the presentational part, for component tests. */
export function ReadingsPanel({ readings, onChange, onReset }: ReadingsPanelProps) {
  const changed = Object.keys(getChangedReadings(readings)).length;
  return (
    <div className="cp-readings">
      <p className="note">
        Where D17 is silent or ambiguous, the spec rules one way (sections 13 and 14). Switch a
        reading to see its alternative on this conversation.
      </p>
      {READINGS.map((info) => (
        <fieldset key={info.name} className="cp-reading" data-reading={info.key}>
          <legend>
            <span className="cp-reading-section">{info.section}</span> {info.question}
          </legend>
          {info.values.map((option, index) => (
            <label key={option.value} className="cp-reading-value">
              <input
                type="radio"
                name={`reading-${info.key}`}
                value={option.value}
                checked={readings[info.name] === option.value}
                data-autofocus={
                  info === READINGS[0] && readings[info.name] === option.value ? true : undefined
                }
                onChange={() => onChange(info.name, option.value)}
              />
              <span>
                <strong>{option.label}</strong>
                {index === 0 ? null : <code> {`${info.key}=${option.value}`}</code>}
                <small>{option.sentence}</small>
              </span>
            </label>
          ))}
        </fieldset>
      ))}
      <button type="button" className="small" disabled={changed === 0} onClick={onReset}>
        Back to the rulings
      </button>
    </div>
  );
}

/** The button's text: how far the readings in force are from the rulings. */
export function getReadingsLabel(readings: Readings): string {
  const changed = Object.keys(getChangedReadings(readings)).length;
  return changed === 0 ? 'D17 readings: rulings' : `D17 readings: ${changed} changed`;
}

/** Props of {@link ReadingsControl}. */
export type ReadingsControlProps = ReadingsPanelProps;

/** The header's button and its panel. */
export function ReadingsControl(props: ReadingsControlProps) {
  const menu = usePopoverState();
  const changed = Object.keys(getChangedReadings(props.readings)).length > 0;
  return (
    <Popover
      label={getReadingsLabel(props.readings)}
      title="D17 readings"
      {...menu}
      buttonTitle="D17's open questions: the spec's rulings, or each alternative"
      buttonClassName={changed ? 'cp-readings-changed' : undefined}
    >
      <ReadingsPanel {...props} />
    </Popover>
  );
}
