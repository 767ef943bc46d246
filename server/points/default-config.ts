// PUT of the realm default points configuration is a partial update (docs/points.md), pure: an absent field keeps its value; for the windows,
// absent keeps them, [] clears them and a list replaces them.
import type { DefaultPointsConfig } from './model.ts';
import type { DefaultConfigPatch } from './store.ts';

export function mergeDefaultConfig(current: DefaultPointsConfig, patch: DefaultConfigPatch, now: number): DefaultPointsConfig {
  return {
    realmId: current.realmId,
    registrationBonusPoints: patch.registrationBonusPoints ?? current.registrationBonusPoints,
    freePeriodicPointsAmount: patch.freePeriodicPointsAmount ?? current.freePeriodicPointsAmount,
    freePeriodicGrantPeriodType: patch.freePeriodicGrantPeriodType ?? current.freePeriodicGrantPeriodType,
    freePeriodicValidityDays: patch.freePeriodicValidityDays ?? current.freePeriodicValidityDays,
    freePeriodicQuotaWindows: patch.freePeriodicQuotaWindows ?? current.freePeriodicQuotaWindows,
    updatedAt: now,
  };
}
