import { type CustomDomain, DOMAIN_STATUSES } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  asciiForm,
  certificateText,
  domainStatus,
  domainsPollInterval,
  needsDnsRecords,
  removeQuestion,
  retryAfterText,
  SETTLING_POLL_MS,
  STATUS_TONES,
  serviceChoices,
} from './domainView';

const domain: CustomDomain = {
  id: 'd1',
  domain: 'shop.example.com',
  unicode_domain: 'shop.example.com',
  service: 'web',
  status: 'pending_dns',
  cause: null,
  retry_after: null,
  redirect_www: false,
  records: [],
  url: 'https://shop.example.com',
  certificate: null,
  verified_at: null,
  checked_at: null,
  next_check_at: null,
  created_at: '2026-11-27T12:00:00.000Z',
};
const withStatus = (status: CustomDomain['status']) => ({ ...domain, status });

describe('a domain in the list', () => {
  it('has a colour for every status: grey, blue, amber, green, orange, red', () => {
    expect(DOMAIN_STATUSES.map((status) => STATUS_TONES[status])).toEqual([
      'neutral',
      'info',
      'warning',
      'success',
      'caution',
      'danger',
    ]);
  });

  it('polls only while a domain is Verified or Issuing certificate', () => {
    expect(domainsPollInterval(undefined)).toBe(false);
    expect(domainsPollInterval([withStatus('pending_dns'), withStatus('active')])).toBe(false);
    expect(domainsPollInterval([withStatus('failed'), withStatus('misconfigured')])).toBe(false);
    expect(domainsPollInterval([withStatus('active'), withStatus('verified')])).toBe(SETTLING_POLL_MS);
    expect(domainsPollInterval([withStatus('issuing')])).toBe(5_000);
  });

  it('shows the DNS records until it is Active', () => {
    expect(DOMAIN_STATUSES.filter((status) => needsDnsRecords(withStatus(status)))).toEqual([
      'pending_dns',
      'verified',
      'issuing',
      'misconfigured',
      'failed',
    ]);
  });

  it('shows an IDN in both forms, a plain name once', () => {
    expect(asciiForm(domain)).toBeUndefined();
    expect(asciiForm({ ...domain, domain: 'xn--bcher-kva.example', unicode_domain: 'bücher.example' })).toBe(
      'xn--bcher-kva.example',
    );
  });

  it('says when to retry and which certificate it has, only when there is one', () => {
    expect(retryAfterText(domain)).toBeUndefined();
    expect(retryAfterText({ ...domain, retry_after: '2026-11-27T13:00:00.000Z' })).toMatch(/^Retry after \w/);
    expect(certificateText(domain)).toBeUndefined();
    expect(
      certificateText({
        ...domain,
        certificate: { issuer: 'Pebble Intermediate CA', not_after: '2027-02-25T12:00:00.000Z' },
      }),
    ).toMatch(/^Certificate from Pebble Intermediate CA, valid until \w/);
  });

  it('names the domain in the removal question', () => {
    expect(removeQuestion(domain)).toBe('Remove shop.example.com? It stops being served at once.');
  });

  it('offers the services that have a URL, by name', () => {
    expect(serviceChoices({ web: 'https://web-shop.example', api: 'https://api-shop.example' })).toEqual([
      { value: 'api', label: 'api' },
      { value: 'web', label: 'web' },
    ]);
  });

  it('shows its status as a badge that turns while it moves on to Active by itself', () => {
    expect(domainStatus(withStatus('issuing'))).toMatchObject({ tone: 'warning', moving: true });
    expect(domainStatus(withStatus('misconfigured'))).toMatchObject({ tone: 'caution', moving: false });
    expect(domainStatus(domain).moving).toBe(false);
  });
});
