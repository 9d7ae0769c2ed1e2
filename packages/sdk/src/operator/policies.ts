import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import { enc } from './organizations.ts';

/** Four-eyes: an order's base amount or a withdrawal's amount at or above this needs two different people. */
export type ApprovalPolicy = Amounts<{ assetSymbol: string; secondApprovalFromMinor: string | null }>;

export class OperatorPolicies {
  constructor(private readonly t: Transport) {}

  async list(): Promise<ApprovalPolicy[]> {
    return (await this.t.get<ApprovalPolicy[]>('/policies/approvals')).data;
  }

  /** `null` removes the policy: one approval, as before. */
  async put(assetSymbol: string, secondApprovalFromMinor: bigint | null): Promise<ApprovalPolicy> {
    return (
      await this.t.request<ApprovalPolicy>(
        { method: 'PUT', path: `/policies/approvals/${enc(assetSymbol)}`, body: { secondApprovalFromMinor } },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }
}
