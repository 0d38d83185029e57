import type { EnterpriseInquiry } from '@slipway/contract';
import type { Db } from '../infra/db/client.js';
import { enterpriseInquiries } from '../infra/db/schema.js';
import type { Mailer } from '../infra/mail/mailer.js';

const blank = (value: string | undefined) => (value ? value : null);

export function createEnterpriseService(deps: { db: Db; mailer: Mailer; salesEmail: string | undefined }) {
  return {
    async submit(inquiry: EnterpriseInquiry): Promise<{ id: string }> {
      const [row] = await deps.db
        .insert(enterpriseInquiries)
        .values({
          companyName: inquiry.companyName,
          contactName: inquiry.contactName,
          email: inquiry.email,
          phone: blank(inquiry.phone),
          companySize: blank(inquiry.companySize),
          industry: blank(inquiry.industry),
          useCase: blank(inquiry.useCase),
          timeline: blank(inquiry.timeline),
          requirements: blank(inquiry.requirements),
          submittedAt: blank(inquiry.submittedAt),
        })
        .returning({ id: enterpriseInquiries.id });
      if (deps.salesEmail) {
        await deps.mailer.send({
          to: deps.salesEmail,
          subject: `Enterprise inquiry from ${inquiry.companyName}`,
          text: [
            `Company: ${inquiry.companyName} (${inquiry.companySize || 'size not given'})`,
            `Contact: ${inquiry.contactName} <${inquiry.email}> ${inquiry.phone ?? ''}`,
            `Industry: ${inquiry.industry || '-'}; timeline: ${inquiry.timeline || '-'}`,
            '',
            inquiry.useCase || '',
            '',
            inquiry.requirements || '',
          ].join('\n'),
        });
      }
      return { id: row!.id };
    },
  };
}

export type EnterpriseService = ReturnType<typeof createEnterpriseService>;
