// A Mastodon domain-block export (Moderation → Federation → Export): CSV (RFC 4180) whose header names its columns,
// `#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate`. A comment may hold commas, quotes
// and line breaks inside double quotes, so the file is read as RFC 4180 says, not split on commas.
import type { DomainBlockRow } from '../../application/use-cases/operations/import-domain-blocks.js';

/** The file is no Mastodon domain-block export: its header names no domain and severity columns. */
export class NotADomainBlockExport extends Error {}

/** The records of RFC 4180 CSV text: fields split on commas, `"…"` quoting (`""` a quote), CRLF or LF line ends. */
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  // Blank lines carry no row.
  return records.filter((r) => !(r.length === 1 && r[0] === ''));
}

const column = (header: readonly string[], name: string): number =>
  header.findIndex((h) => h.trim().toLowerCase().replace(/^#/, '') === name);

/** The rows of an export, each with its domain and severity; throws NotADomainBlockExport when the header is not one. */
export function domainBlockRows(text: string): DomainBlockRow[] {
  const [header, ...rows] = csvRecords(text.replace(/^\uFEFF/, ''));
  const domain = header === undefined ? -1 : column(header, 'domain');
  const severity = header === undefined ? -1 : column(header, 'severity');
  if (domain === -1 || severity === -1)
    throw new NotADomainBlockExport(
      'not a Mastodon domain-block export: its first line must name the columns, #domain,#severity,…',
    );
  return rows.map((row) => ({ domain: row[domain] ?? '', severity: row[severity] ?? '' }));
}
