import { Link } from 'react-router';
import { PageShell, Prose } from './PageShell';

export function PrivacyPage() {
  return (
    <PageShell title="Privacy Policy" meta="Last updated: January 15, 2024">
      <Prose>
        <p>
          This policy explains what Slipway collects, why, and what choices you have. We collect only what we
          need to run your deployments.
        </p>

        <h2>Information we collect</h2>
        <ul>
          <li>
            <strong>Account data</strong> from GitHub: your login, name, avatar and email, plus the first and
            last name and email you give us when completing your profile.
          </li>
          <li>
            <strong>Repository data</strong>: the repositories and branches you choose to deploy, read through
            the GitHub App permissions you grant.
          </li>
          <li>
            <strong>Operational data</strong>: build and runtime logs, health checks and container metrics of
            your deployments.
          </li>
          <li>
            <strong>Billing data</strong>: subscription status and invoices. Card and account details stay
            with our payment provider (PayPal).
          </li>
        </ul>

        <h2>How we use it</h2>
        <ul>
          <li>to build, deploy, monitor and alert on your apps;</li>
          <li>to manage the beta whitelist and tell you when you are let in;</li>
          <li>to answer support requests and keep the Service secure.</li>
        </ul>
        <p>We do not sell your data or use your code for anything other than deploying it.</p>

        <h2>Secrets and environment variables</h2>
        <p>
          Environment variables are stored encrypted through a key vault and are never written to build logs.
        </p>

        <h2>Retention</h2>
        <ul>
          <li>Logs: 90 days</li>
          <li>Monitoring data: 30 days</li>
          <li>Support tickets: 2 years</li>
        </ul>
        <p>When you close your account, your data is deleted within 30 days.</p>

        <h2>Sharing</h2>
        <p>
          We share data only with the providers that run the Service (cloud hosting, email delivery, Telegram
          for alerts you configure, and PayPal for payments), or when the law requires it.
        </p>

        <h2>Children's privacy</h2>
        <p>
          Slipway is not directed at children under 13, and we do not knowingly collect personal information
          from children under 13. If you believe a child has given us data, contact us and we will delete it.
        </p>

        <h2>Your rights</h2>
        <p>
          You can see, correct, export or delete your data. You can revoke Slipway's GitHub access at any time
          in your GitHub settings.
        </p>

        <h2>Contact</h2>
        <p>
          Questions about privacy? <Link to="/contact">Contact us</Link>. See also our{' '}
          <Link to="/terms">Terms of Service</Link>.
        </p>
      </Prose>
    </PageShell>
  );
}
