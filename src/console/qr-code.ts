import QRCode from 'qrcode';

/**
 * A QR code as an SVG data URI for an <img>: the CSP allows img-src data:, and an image needs no
 * inline markup (no dangerouslySetInnerHTML). Rendered on the server: no script in the page.
 */
export async function qrCodeDataUri(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
