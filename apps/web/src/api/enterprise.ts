import type { EnterpriseInquiry } from '@slipway/contract';
import { api } from './client';

export async function submitEnterpriseInquiry(inquiry: EnterpriseInquiry): Promise<void> {
  await api.post('/api/enterprise-contact', inquiry);
}
