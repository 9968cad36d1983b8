import { expect } from 'chai';
import { negotiate, prefersHtml } from '../../src/adapters/http/shared/negotiate.js';

describe('content negotiation', () => {
  const pages = ['html', 'json', 'ap'] as const;

  it('answers HTML with no Accept, */* or a tie', () => {
    expect(negotiate(undefined, pages)).to.equal('html');
    expect(negotiate('*/*', pages)).to.equal('html');
    expect(negotiate('application/json, text/html', pages)).to.equal('html');
  });

  it('honours q-values', () => {
    expect(negotiate('text/html;q=0.5, application/json', pages)).to.equal('json');
    expect(negotiate('text/html, application/json;q=0.9', pages)).to.equal('html');
  });

  it('answers ActivityStreams to both AP forms, with or without a profile', () => {
    expect(negotiate('application/activity+json', pages)).to.equal('ap');
    expect(negotiate('application/ld+json; profile="https://www.w3.org/ns/activitystreams"', pages)).to.equal(
      'ap',
    );
    expect(negotiate('application/activity+json, application/ld+json', pages)).to.equal('ap');
  });

  it('lets the most specific range decide', () => {
    expect(negotiate('text/*;q=0.1, text/html;q=0, application/json;q=0.2', pages)).to.equal('json');
  });

  it('finds nothing for a type the route cannot produce', () => {
    expect(negotiate('image/png', pages)).to.equal(null);
    expect(negotiate('text/html;q=0', ['html'])).to.equal(null);
  });

  it('answers a JSON-only route with JSON for */*', () => {
    expect(negotiate('*/*', ['json', 'ap'])).to.equal('json');
  });

  it('shows error pages only to clients that prefer HTML', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).to.equal(true);
    expect(prefersHtml('*/*')).to.equal(false);
    expect(prefersHtml(undefined)).to.equal(false);
    expect(prefersHtml('application/json')).to.equal(false);
  });
});
