import { useId, useState } from 'react';
import { useConsole } from '../context';
import { useOneAtATime } from '../one-at-a-time';
import { refusal } from '../problem-words';

/**
 * Creates a reactivation campaign: a name, an optional discount code, and how often one customer may use it.
 * A name already taken is refused here: two campaigns of one name are two rows no one can tell apart.
 */
export function NewCampaign({ onCreated, names }: { onCreated(): void; names: readonly string[] }) {
  const { api, shop } = useConsole();
  const ids = useId();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [claims, setClaims] = useState('1');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, oneAtATime] = useOneAtATime();
  const submit = async () => {
    setStatus(null);
    const taken = names.find((n) => n.trim().toLowerCase() === name.trim().toLowerCase());
    if (taken !== undefined) {
      setStatus({
        ok: false,
        text: `A campaign is already named “${taken}”: name this one so the two can be told apart.`,
      });
      return;
    }
    try {
      const body = {
        name: name.trim(),
        discount_code: code.trim() === '' ? null : code.trim(),
        max_claims_per_customer: Number(claims),
      };
      const { campaign } = await api.send<{ campaign: { id: number; name: string } }>(
        'POST',
        `/shops/${encodeURIComponent(shop.handle)}/campaigns`,
        body,
      );
      setStatus({
        ok: true,
        text: `Created “${campaign.name}”, campaign ${campaign.id}: how to make its links shows below.`,
      });
      setName('');
      setCode('');
      onCreated();
    } catch (e) {
      setStatus({
        ok: false,
        text: refusal(e, {
          name: 'Campaign name',
          discount_code: 'Discount code',
          max_claims_per_customer: 'Reactivations one customer may make',
        }),
      });
    }
  };
  return (
    <form
      className="new-campaign"
      aria-labelledby={`${ids}-h`}
      onSubmit={(e) => {
        e.preventDefault();
        void oneAtATime(submit);
      }}
    >
      <h2 id={`${ids}-h`}>New campaign</h2>
      <div className="field">
        <label htmlFor={`${ids}-name`}>Campaign name</label>
        <input id={`${ids}-name`} value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-code`}>Discount code applied on reactivation (optional)</label>
        <input id={`${ids}-code`} value={code} maxLength={100} onChange={(e) => setCode(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-claims`}>Reactivations one customer may make with it</label>
        <input
          id={`${ids}-claims`}
          type="number"
          min={1}
          max={1000}
          required
          value={claims}
          onChange={(e) => setClaims(e.target.value)}
        />
      </div>
      <button type="submit" className="primary" disabled={busy}>
        Create the campaign
      </button>
      <p role="status" className={status?.ok === false ? 'error' : 'ok'}>
        {status?.text ?? ''}
      </p>
    </form>
  );
}
