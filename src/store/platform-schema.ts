/** Table shapes of the platform connection (migration 2026_11_25_0300_platform). */
export interface PlatformTables {
  platform_connections: {
    shop_id: number;
    shop_domain: string;
    api_version: string;
    api_url: string;
    access_token: string | null;
    status: string;
    sync: string | null; // JSON of PlatformSync
    refusals: number;
    last_reconciled_at: number | null;
    webhooks: string; // JSON array of {topic, id}
    updated_at: number;
  };
  platform_staging: { shop_id: number; seq: number; gid: string; parent: string | null; line: string };
  privacy_requests: {
    shop_id: number;
    id: string;
    kind: string;
    customer_id: number | null;
    received_at: number;
    export: string | null;
    expires_at: number;
  };
}
