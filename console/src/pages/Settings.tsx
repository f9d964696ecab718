import { useEffect, useId, useState } from 'react';
import { LoadState } from '../components/LoadState';
import { useConsole } from '../context';
import { useLoad } from '../hooks';
import { SETTING_GROUPS, type SettingField, type Settings, without } from '../settings/fields';
import { SignatureSwitch } from '../settings/SignatureSwitch';
import { usePageTitle } from '../title';
import type { Shop } from '../types';
import { ActionMessage } from '../components/ActionMessage';
import { refusal, type FieldLabels } from '../problem-words';
import { decimalTyped, typedNumber } from '../decimal';

type General = Pick<Shop, 'name' | 'timezone' | 'currency' | 'public_url'>;

/** Every setting of the shop, what it is now (or the default that applies), and a way back to the default. */
/** The form's fields by the API's names for them, for its refusals. */
const SETTINGS_LABELS: FieldLabels = {
  name: 'Shop name',
  timezone: 'Time zone',
  currency: 'Currency',
  public_url: 'Storefront address',
  ...Object.fromEntries(SETTING_GROUPS.flatMap((g) => g.fields).map((f) => [`settings.${f.name}`, f.label])),
};

/** The browser's time zone names, offered as the time zone is typed (typing any other stays possible). */
const TIME_ZONES: readonly string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

export function SettingsPage() {
  const { api, shop, onShopChanged, operator } = useConsole();
  usePageTitle('Settings');
  const ids = useId();
  const path = `/shops/${encodeURIComponent(shop.handle)}`;
  const [general, setGeneral] = useState<General>(() => ({
    name: shop.name,
    timezone: shop.timezone,
    currency: shop.currency,
    public_url: shop.public_url,
  }));
  const [settings, setSettings] = useState<Settings>(shop.settings);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // Another tab or the API may have changed the shop since sign-in: show what is stored, or say it is not shown.
  const stored = useLoad(() => api.get<{ shop: Shop }>(path).then((r) => r.shop), [api, path]);
  const fresh = stored.data;
  useEffect(() => {
    if (!fresh) return;
    setGeneral({ name: fresh.name, timezone: fresh.timezone, currency: fresh.currency, public_url: fresh.public_url });
    setSettings(fresh.settings);
    onShopChanged(fresh);
  }, [fresh, onShopChanged]);

  const save = async (patch: { settings: Settings } & Partial<General>, done: string) => {
    setBusy(true);
    setMessage(null);
    try {
      // The API merges settings into the shop's: one taken back to its default is sent as null.
      const cleared = Object.keys(shop.settings).filter((name) => !(name in patch.settings));
      const settingsPatch = { ...patch.settings, ...Object.fromEntries(cleared.map((name) => [name, null])) };
      const { shop: saved } = await api.send<{ shop: Shop }>('PATCH', path, { ...patch, settings: settingsPatch });
      setSettings(saved.settings);
      onShopChanged(saved);
      setMessage({ error: false, text: done });
    } catch (e) {
      setMessage({ error: true, text: refusal(e, SETTINGS_LABELS) });
    } finally {
      setBusy(false);
    }
  };

  // The switch saves its one setting: the form's other edits stay as typed, unsaved (it sent them too).
  const saveSignature = async (on: boolean) => {
    setBusy(true);
    setMessage(null);
    try {
      const patch = { settings: { require_customer_signature: on ? true : null } };
      const { shop: saved } = await api.send<{ shop: Shop }>('PATCH', path, patch);
      setSettings((current) =>
        on ? { ...current, require_customer_signature: true } : without(current, 'require_customer_signature'),
      );
      onShopChanged(saved);
      setMessage({
        error: false,
        text: on ? 'Customer signatures are now required.' : 'Customer signatures are no longer required.',
      });
    } catch (e) {
      setMessage({ error: true, text: refusal(e, SETTINGS_LABELS) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${ids}-h`}>
      <h1 id={`${ids}-h`}>Settings</h1>
      <LoadState
        loaded={stored}
        what="the settings as stored now"
        meanwhile="Those below are from when you signed in, and may be out of date."
      />
      <h2>Storefront security</h2>
      <SignatureSwitch
        on={settings.require_customer_signature === true}
        busy={busy}
        onChange={(on) => void saveSignature(on)}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save({ ...general, settings }, 'Settings saved.');
        }}
      >
        <h2>Shop</h2>
        <div className="field">
          <label htmlFor={`${ids}-name`}>Shop name</label>
          <input
            id={`${ids}-name`}
            value={general.name}
            required
            pattern=".*\S.*"
            title="A name with at least one letter or digit"
            maxLength={200}
            onChange={(e) => setGeneral({ ...general, name: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-tz`}>Time zone (days and charts follow it)</label>
          <input
            id={`${ids}-tz`}
            list={`${ids}-zones`}
            autoComplete="off"
            aria-describedby={`${ids}-tz-help`}
            value={general.timezone}
            onChange={(e) => setGeneral({ ...general, timezone: e.target.value })}
          />
          <span className="muted" id={`${ids}-tz-help`}>
            A region and a city, such as America/New_York or Europe/Berlin: type part of it to choose.
          </span>
          <datalist id={`${ids}-zones`}>
            {TIME_ZONES.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-cur`}>Currency (three letters)</label>
          <input
            id={`${ids}-cur`}
            value={general.currency}
            pattern="[A-Z]{3}"
            onChange={(e) => setGeneral({ ...general, currency: e.target.value.toUpperCase() })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-url`}>Storefront address</label>
          <input
            id={`${ids}-url`}
            value={general.public_url ?? ''}
            placeholder="https://shop.example"
            onChange={(e) =>
              setGeneral({ ...general, public_url: e.target.value.trim() === '' ? null : e.target.value })
            }
          />
        </div>
        {SETTING_GROUPS.map((group) => (
          <fieldset key={group.title}>
            <legend>{group.title}</legend>
            {group.fields.map((field) => (
              <SettingRow
                key={field.name}
                field={field}
                settings={settings}
                onChange={setSettings}
                locked={field.operator === true && !operator}
              />
            ))}
          </fieldset>
        ))}
        <ActionMessage message={message} okClass="notice" />
        <button type="submit" className="primary" disabled={busy}>
          Save settings
        </button>
      </form>
    </section>
  );
}

function SettingRow({
  field,
  settings,
  onChange,
  locked,
}: {
  field: SettingField;
  settings: Settings;
  onChange(next: Settings): void;
  /** An operator's setting seen with a shop's key: shown, not editable (the save would be refused whole). */
  locked: boolean;
}) {
  const id = useId();
  const value = settings[field.name];
  // What is said next to the input is read with it: its unit, the default that applies, the help and who may change it.
  const notes = [
    field.kind.type === 'number' ? `${id}-unit` : null,
    value === undefined ? `${id}-default` : null,
    field.help ? `${id}-help` : null,
    field.operator ? `${id}-operator` : null,
  ];
  const describedBy = notes.filter((note) => note !== null).join(' ') || undefined;
  const set = (next: unknown) => onChange({ ...settings, [field.name]: next });
  const kind = field.kind;
  let input: React.ReactNode;
  if (kind.type === 'number')
    input = (
      <>
        <NumberText
          id={id}
          disabled={locked}
          value={typeof value === 'number' ? value : null}
          placeholder={field.fallback}
          describedBy={describedBy}
          onChange={(typed) => (typed === '' ? onChange(without(settings, field.name)) : set(typed))}
        />{' '}
        <span id={`${id}-unit`}>{kind.unit}</span>
      </>
    );
  else if (kind.type === 'choice')
    input = (
      <select
        id={id}
        disabled={locked}
        aria-describedby={describedBy}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => (e.target.value === '' ? onChange(without(settings, field.name)) : set(e.target.value))}
      >
        <option value="">Default ({field.fallback})</option>
        {kind.options.map(([code, label]) => (
          <option key={code} value={code}>
            {label}
          </option>
        ))}
      </select>
    );
  else
    input = (
      <select
        id={id}
        disabled={locked}
        aria-describedby={describedBy}
        value={value === undefined ? '' : value ? 'on' : 'off'}
        onChange={(e) =>
          e.target.value === '' ? onChange(without(settings, field.name)) : set(e.target.value === 'on')
        }
      >
        <option value="">Default ({field.fallback})</option>
        <option value="on">On</option>
        <option value="off">Off</option>
      </select>
    );
  return (
    <div className="field setting-row" data-setting={field.name}>
      <label htmlFor={id}>{field.label}</label>
      <span>
        {input}{' '}
        {value === undefined ? (
          <span className="muted" id={`${id}-default`}>
            Not set: the default ({field.fallback}) applies.
          </span>
        ) : locked ? null : (
          <button type="button" onClick={() => onChange(without(settings, field.name))}>
            Use the default for “{field.label}”
          </button>
        )}
      </span>
      {field.help && (
        <span className="muted" id={`${id}-help`}>
          {field.help}
        </span>
      )}
      {field.operator && (
        <span className="muted" id={`${id}-operator`}>
          Only the operator token changes this.
        </span>
      )}
    </div>
  );
}

/**
 * A setting's number as typed (a text input: a browser's number input dropped a decimal comma, and 2,5
 * days were saved as 25). A number is set as one; other text is set as typed, for the save to be refused
 * naming the field, never saved as something else.
 */
function NumberText(props: {
  id: string;
  disabled: boolean;
  value: number | null;
  placeholder: string | undefined;
  describedBy: string | undefined;
  onChange(typed: number | string): void;
}) {
  const [text, setText] = useState(props.value === null ? '' : String(props.value));
  useEffect(() => {
    // Another change of the settings (a save, a reset) shows; the text being typed stays as it is.
    setText((typed) => (typedNumber(typed) === props.value ? typed : props.value === null ? '' : String(props.value)));
  }, [props.value]);
  return (
    <input
      id={props.id}
      type="text"
      inputMode="decimal"
      disabled={props.disabled}
      value={text}
      placeholder={props.placeholder}
      aria-describedby={props.describedBy}
      onChange={(e) => {
        const typed = decimalTyped(e.target.value);
        setText(typed);
        const number = typedNumber(typed);
        props.onChange(typed.trim() === '' ? '' : (number ?? typed));
      }}
    />
  );
}
