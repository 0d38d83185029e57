import { z } from 'zod';

export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1000+'] as const;
export const TIMELINES = ['immediate', 'short', 'medium', 'long', 'exploring'] as const;

const optionalText = (max: number) => z.string().trim().max(max).optional().or(z.literal(''));

export const enterpriseInquirySchema = z.object({
  companyName: z.string().trim().min(1, { error: 'Company name is required' }).max(200),
  contactName: z.string().trim().min(1, { error: 'Contact name is required' }).max(200),
  email: z.email({ error: 'Please enter a valid email address' }).max(254),
  phone: optionalText(50),
  companySize: z.enum(COMPANY_SIZES).optional().or(z.literal('')),
  industry: optionalText(200),
  useCase: optionalText(5000),
  timeline: z.enum(TIMELINES).optional().or(z.literal('')),
  requirements: optionalText(5000),
  submittedAt: z.string().max(64).optional(),
});
export type EnterpriseInquiry = z.infer<typeof enterpriseInquirySchema>;
export const enterpriseInquiryResultSchema = z.strictObject({ success: z.literal(true), id: z.string() });
