/**
 * A QR code of `text` as an SVG picture in a `data:` URL, made here (no external service ever sees the secret it
 * holds) and shown with `<img>`, which the Content-Security-Policy allows (`img-src data:`).
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  // Loaded on first use, like the WebAuthn library: a set-up page is rare, an idle process's memory is not.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
