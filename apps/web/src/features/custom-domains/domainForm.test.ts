import { describe, expect, it } from 'vitest';
import { domainRequest, emptyDomainForm, redirectWwwHint, wwwCounterpart } from './domainForm';

const form = { ...emptyDomainForm('web'), domain: 'Shop.Example.com.' };

describe('the add-domain form', () => {
  it('sends the normalised name, the service and the www choice', () => {
    expect(domainRequest({ ...form, redirectWww: true })).toEqual({
      input: { domain: 'shop.example.com', service: 'web', redirect_www: true },
    });
  });

  it('sends an IDN in its ASCII form', () => {
    expect(domainRequest({ ...form, domain: 'bücher.example' })).toEqual({
      input: { domain: 'xn--bcher-kva.example', service: 'web', redirect_www: false },
    });
  });

  it('says what is wrong in the server’s words', () => {
    expect(domainRequest({ ...form, domain: '   ' })).toEqual({
      problems: { domain: 'Enter a domain name' },
    });
    expect(domainRequest({ ...form, domain: 'https://shop.example.com/' })).toEqual({
      problems: {
        domain:
          '"https://shop.example.com/" is not a domain name: enter one like shop.example.com, without https:// or a path',
      },
    });
    for (const notAName of ['127.0.0.1', 'localhost', '*.example.com', '-shop.example.com']) {
      expect(domainRequest({ ...form, domain: notAName })).toHaveProperty('problems.domain');
    }
    expect(domainRequest({ ...form, service: '' })).toEqual({
      problems: { service: 'Choose the service this domain serves' },
    });
  });
});

describe('the www redirect', () => {
  it('adds www to a name, and takes it off a www name', () => {
    expect(wwwCounterpart('shop.example.com')).toBe('www.shop.example.com');
    expect(wwwCounterpart('example.com')).toBe('www.example.com');
    expect(wwwCounterpart('www.example.com')).toBe('example.com');
    expect(wwwCounterpart('www.com')).toBe('www.www.com');
  });

  it('explains itself for the name typed, or in general before one is', () => {
    expect(redirectWwwHint('shop.example.com')).toBe(
      'Visitors to www.shop.example.com are redirected to shop.example.com.',
    );
    expect(redirectWwwHint('WWW.Example.com.')).toBe(
      'Visitors to example.com are redirected to www.example.com.',
    );
    expect(redirectWwwHint('bücher.example')).toBe(
      'Visitors to www.bücher.example are redirected to bücher.example.',
    );
    expect(redirectWwwHint('')).toBe(
      'For shop.example.com, www.shop.example.com redirects to it; for www.example.com, example.com does.',
    );
  });
});
