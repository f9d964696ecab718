import { useId, useState } from 'react';
import { ApiError } from '../api';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_A11Y, ChartFigure, COLORS, TOOLTIP } from '../components/Chart';
import { NewCampaign } from '../components/NewCampaign';
import { useConsole } from '../context';
import { formatDate, useLoad } from '../hooks';
import { usePageTitle } from '../title';
import { TableWrap } from '../components/TableWrap';

interface Counts {
  links_generated: number;
  pages_opened: number;
  reactivations: number;
}
interface Campaign {
  id: number;
  name: string;
  discount_code: string | null;
  max_claims_per_customer: number;
  created_at: string;
  stats: Counts;
}
interface CampaignStats extends Counts {
  by_tk: Record<string, Counts>;
}

/** Reactivation campaigns: links generated, pages opened and reactivations, in total and per `tk`. */
export function CampaignsPage() {
  const { api, shop } = useConsole();
  usePageTitle('Campaigns');
  const base = `/shops/${encodeURIComponent(shop.handle)}/campaigns`;
  const list = useLoad(() => api.get<{ data: Campaign[] }>(base).then((r) => r.data), [base]);
  const [chosen, setChosen] = useState<number | null>(null);
  const campaigns = list.data ?? [];
  const current = campaigns.find((c) => c.id === chosen) ?? campaigns[0];
  return (
    <section aria-labelledby="campaigns-heading">
      <h1 id="campaigns-heading">Campaigns</h1>
      {list.error && (
        <p className="error" role="alert">
          {list.error}
        </p>
      )}
      {list.loading && !list.data && <p className="muted">Loading…</p>}
      {list.data && campaigns.length === 0 && (
        <p>No campaigns yet: create one below, then send its reactivation links.</p>
      )}
      <NewCampaign onCreated={list.reload} names={campaigns.map((c) => c.name)} />
      {campaigns.length > 0 &&
        campaigns.every((c) => c.stats.links_generated + c.stats.pages_opened + c.stats.reactivations === 0) && (
          <p className="muted">No activity yet: a campaign counts here once links are made with its number.</p>
        )}
      {campaigns.length > 0 && (
        <>
          <ChartFigure
            title="All campaigns"
            columns={['Campaign', 'Links generated', 'Pages opened', 'Reactivations']}
            rows={campaigns.map((c) => [c.name, c.stats.links_generated, c.stats.pages_opened, c.stats.reactivations])}
          >
            <CountBars data={campaigns.map((c) => ({ name: c.name, ...c.stats }))} />
          </ChartFigure>
          <TableWrap>
            <table>
              <thead>
                <tr>
                  <th scope="col">Campaign</th>
                  <th scope="col">Discount code</th>
                  <th scope="col">Claims per customer</th>
                  <th scope="col">Created</th>
                  <th scope="col">Links</th>
                  <th scope="col">Opened</th>
                  <th scope="col">Reactivated</th>
                  <th scope="col">Number</th>
                </tr>
              </thead>
              <tbody>
                {campaigns.map((c) => (
                  <tr key={c.id} aria-current={c.id === current?.id ? 'true' : undefined}>
                    <td>
                      <button type="button" className="link" onClick={() => setChosen(c.id)}>
                        {c.name}
                      </button>
                    </td>
                    <td>{c.discount_code ?? '—'}</td>
                    <td>{c.max_claims_per_customer}</td>
                    <td>{formatDate(c.created_at)}</td>
                    <td>{c.stats.links_generated}</td>
                    <td>{c.stats.pages_opened}</td>
                    <td>{c.stats.reactivations}</td>
                    <td>{c.id}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          {current && <CampaignDetail key={current.id} campaign={current} base={base} onChanged={list.reload} />}
        </>
      )}
    </section>
  );
}

function CampaignDetail({ campaign, base, onChanged }: { campaign: Campaign; base: string; onChanged(): void }) {
  const { api } = useConsole();
  const stats = useLoad(
    () => api.get<{ data: CampaignStats }>(`${base}/${campaign.id}/stats`).then((r) => r.data),
    [base, campaign.id],
  );
  const rows = Object.entries(stats.data?.by_tk ?? {}).map(([tk, counts]) => ({ name: tk, ...counts }));
  return (
    <section aria-labelledby="campaign-detail-heading">
      <ClaimLimit campaign={campaign} base={base} onChanged={onChanged} />
      <CampaignLinks campaign={campaign} />
      <h2 id="campaign-detail-heading">{campaign.name}: by where its links were sent (tk)</h2>
      {stats.error && (
        <p className="error" role="alert">
          {stats.error}
        </p>
      )}
      {stats.data && rows.length === 0 && <p className="muted">No links with a tk yet.</p>}
      {rows.length > 0 && (
        <ChartFigure
          title={`${campaign.name} by tk`}
          columns={['tk', 'Links generated', 'Pages opened', 'Reactivations']}
          rows={rows.map((r) => [r.name, r.links_generated, r.pages_opened, r.reactivations])}
        >
          <CountBars data={rows} />
        </ChartFigure>
      )}
    </section>
  );
}

/**
 * How a campaign is put to use: its links are made by whoever sends the win-back e-mails, naming
 * the campaign's number, and a `tk` of theirs tells apart where each link went (docs/billing.md).
 */
function CampaignLinks({ campaign }: { campaign: Campaign }) {
  return (
    <div className="campaign-links">
      <h2>Using {campaign.name}</h2>
      <p>
        Campaign number <strong>{campaign.id}</strong>. The links of your win-back e-mails and pages count here when
        they are made with it: give the number to whoever sends them. They ask Rebound for each customer&apos;s links
        with <code>campaign_id={campaign.id}</code> (<code>GET /api/v1/billing/reactivate</code>, with the shop&apos;s
        private key), and a <code>tk</code> of up to 40 characters, such as <code>march-email</code>, to tell apart
        where each link was sent.
      </p>
    </div>
  );
}

function CountBars({ data }: { data: ({ name: string } & Counts)[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart {...CHART_A11Y} data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="name" tick={{ fontSize: 11 }} />
        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
        <Tooltip {...TOOLTIP} />
        <Legend />
        <Bar dataKey="links_generated" name="Links generated" fill={COLORS.muted} isAnimationActive={false} />
        <Bar dataKey="pages_opened" name="Pages opened" fill={COLORS.primary} isAnimationActive={false} />
        <Bar dataKey="reactivations" name="Reactivations" fill={COLORS.tertiary} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/**
 * How many times one billing customer may reactivate through the campaign's live links; a
 * customer past it sees "already reactivated" and nothing changes.
 */
function ClaimLimit({ campaign, base, onChanged }: { campaign: Campaign; base: string; onChanged(): void }) {
  const { api } = useConsole();
  const id = useId();
  const helpId = useId();
  const [value, setValue] = useState(String(campaign.max_claims_per_customer));
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function save(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    try {
      const answer = await api.send<{ campaign: Campaign }>('PATCH', `${base}/${campaign.id}`, {
        max_claims_per_customer: Number(value),
      });
      setStatus({ ok: true, text: `Saved: ${answer.campaign.max_claims_per_customer} per customer.` });
      onChanged();
    } catch (error) {
      setStatus({ ok: false, text: error instanceof ApiError ? error.message : 'Could not save.' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="field inline claim-limit" onSubmit={save}>
      <label htmlFor={id} className="field-label">
        Claims per customer for {campaign.name}
      </label>
      <input
        id={id}
        type="number"
        min={1}
        max={1000}
        step={1}
        required
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-describedby={helpId}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save limit'}
      </button>
      <span id={helpId} className="muted">
        Reactivations one customer may make through this campaign&apos;s links (1–1000).
      </span>
      <span role="status" className={status?.ok === false ? 'error' : 'ok'}>
        {status?.text ?? ''}
      </span>
    </form>
  );
}
