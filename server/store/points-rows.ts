// The rows of the points tables both backends read the same way (the same columns in SQLite and
// PostgreSQL), and the records they make.

import type { ChargeLine } from '../points/charges.ts';
import type { StoredHold } from '../points/holds.ts';
import { type DefaultPointsConfig, defaultConfigFor, type HoldStatus, type PeriodType, type QuotaWindow } from '../points/model.ts';

export interface ConfigRow {
  realm_id: string;
  registration_bonus_points: number;
  free_periodic_points_amount: number;
  free_periodic_grant_period_type: string;
  free_periodic_validity_days: number;
  free_periodic_quota_windows: string | null;
  updated_at: number;
}

export function toConfig(r: ConfigRow | null | undefined, realmId: string): DefaultPointsConfig {
  if (!r) return defaultConfigFor(realmId);
  return {
    realmId: r.realm_id,
    registrationBonusPoints: r.registration_bonus_points,
    freePeriodicPointsAmount: r.free_periodic_points_amount,
    freePeriodicGrantPeriodType: r.free_periodic_grant_period_type as PeriodType,
    freePeriodicValidityDays: r.free_periodic_validity_days,
    freePeriodicQuotaWindows: r.free_periodic_quota_windows === null ? null : (JSON.parse(r.free_periodic_quota_windows) as QuotaWindow[]),
    updatedAt: r.updated_at,
  };
}

export interface HoldRow {
  id: string;
  realm_id: string;
  user_id: string;
  amount: number;
  lines: string;
  status: HoldStatus;
  description: string | null;
  created_at: number;
  expires_at: number;
  settled_amount: number | null;
  closed_at: number | null;
}

export function toHold(r: HoldRow): StoredHold {
  return {
    holdId: r.id,
    realmId: r.realm_id,
    userId: r.user_id,
    amount: r.amount,
    lines: JSON.parse(r.lines) as ChargeLine[],
    status: r.status,
    description: r.description,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    settledAmount: r.settled_amount,
    closedAt: r.closed_at,
  };
}
