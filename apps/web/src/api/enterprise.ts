import type { EnterpriseInquiry } from '@slipway/contract';
import { callRoute } from './routeClient';

export async function submitEnterpriseInquiry(inquiry: EnterpriseInquiry): Promise<void> {
  await callRoute('enterpriseContact', { body: inquiry });
}
