import { Link } from 'react-router';
import { PageShell, Prose } from './PageShell';

const SECTIONS = [
  ['agreement', '1. Agreement to Terms'],
  ['service', '2. Description of Service'],
  ['accounts', '3. Accounts'],
  ['acceptable-use', '4. Acceptable Use'],
  ['billing', '5. Billing and Payment'],
  ['sla', '6. Service Level Agreement'],
  ['data', '7. Data and Privacy'],
  ['liability', '8. Limitation of Liability'],
  ['termination', '9. Termination'],
  ['changes', '10. Changes to These Terms'],
  ['law', '11. Governing Law'],
  ['contact', '12. Contact'],
] as const;

export function TermsPage() {
  return (
    <PageShell title="Terms of Service" meta="Last updated: January 15, 2024">
      <nav aria-label="Sections" className="mb-10 rounded-xl border border-zinc-200 bg-zinc-50 p-5">
        <p className="text-sm font-semibold text-zinc-900">On this page</p>
        <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
          {SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`} className="text-zinc-600 hover:text-zinc-900">
                {title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <Prose>
        <h2 id="agreement">1. Agreement to Terms</h2>
        <p>
          By creating an account or using Slipway ("the Service") you agree to these Terms of Service. If you
          do not agree, do not use the Service. Our <Link to="/privacy">Privacy Policy</Link> explains how we
          handle your data and is part of these terms.
        </p>

        <h2 id="service">2. Description of Service</h2>
        <p>
          Slipway deploys Docker-based repositories from your GitHub account onto virtual machines, serves
          them over HTTPS, streams build and runtime logs, monitors their health and sends alerts. Features
          include:
        </p>
        <ul>
          <li>Deployment of Dockerfile and docker-compose projects to a VM size of your choice.</li>
          <li>Health checks every 30 seconds and alerts within 60 seconds of a detected failure.</li>
          <li>Alerts by email and Telegram, with phone and SMS alerts.</li>
          <li>One-click rollback to a previous deployment.</li>
          <li>Custom domains with automatic SSL certificates.</li>
        </ul>
        <p>The Service is currently in beta and access is limited through a whitelist.</p>

        <h2 id="accounts">3. Accounts</h2>
        <p>
          You sign in with a GitHub account and must provide accurate profile information (name and email).
          You are responsible for everything that happens under your account and for keeping your GitHub
          account secure. Tell us immediately about any unauthorized use.
        </p>

        <h2 id="acceptable-use">4. Acceptable Use</h2>
        <p>You agree not to use the Service to:</p>
        <ul>
          <li>run malware, crypto-mining, phishing, spam or denial-of-service tools;</li>
          <li>host content that is illegal or infringes the rights of others;</li>
          <li>attempt to break out of your VM or container, or access other customers' workloads or data;</li>
          <li>probe, scan or overload the Service or its infrastructure.</li>
        </ul>
        <p>We may suspend deployments that violate this section.</p>

        <h2 id="billing">5. Billing and Payment</h2>
        <ul>
          <li>Plans are monthly and priced by VM size.</li>
          <li>We give at least 30 days notice of any price change.</li>
          <li>Payment is due monthly in advance.</li>
          <li>Fees are non-refundable unless required by law.</li>
          <li>Usage-based charges, if any, are billed monthly in arrears.</li>
        </ul>
        <p>The beta is free of charge.</p>

        <h2 id="sla">6. Service Level Agreement</h2>
        <p>
          We target 99.9% uptime for the Service each month. Deployed apps are checked every 30 seconds and
          alerts are sent within 60 seconds of a detected failure. Support response targets:
        </p>
        <ul>
          <li>Urgent: 30 minutes</li>
          <li>High: 2 hours</li>
          <li>Medium: 8 hours</li>
          <li>Low: 24 hours</li>
        </ul>

        <h2 id="data">7. Data and Privacy</h2>
        <p>
          You keep all rights to your code and data. We access your repositories only to build and deploy
          them. Environment variables and secrets are stored encrypted. See the{' '}
          <Link to="/privacy">Privacy Policy</Link> for details.
        </p>

        <h2 id="liability">8. Limitation of Liability</h2>
        <p>
          The Service is provided "as is". To the fullest extent permitted by law, our total liability for any
          claim is capped at the amount you paid us in the 12 months before the claim. We are not liable for
          indirect, incidental or consequential damages, including lost profits or data.
        </p>

        <h2 id="termination">9. Termination</h2>
        <p>
          You may close your account at any time. We may suspend or terminate accounts that breach these
          terms. After termination your deployments are stopped and your data is deleted within 30 days.
        </p>

        <h2 id="changes">10. Changes to These Terms</h2>
        <p>
          We may update these terms. We will tell you about material changes by email or in the app;
          continuing to use the Service after a change means you accept it.
        </p>

        <h2 id="law">11. Governing Law</h2>
        <p>These terms are governed by the laws of the State of California, USA.</p>

        <h2 id="contact">12. Contact</h2>
        <p>
          Questions about these terms? <Link to="/contact">Contact us</Link>.
        </p>
      </Prose>
    </PageShell>
  );
}
