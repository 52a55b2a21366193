/**
 * Brand marks for the tabs and accordion layouts: a small inline SVG per brand (a coloured card
 * with the brand's name as text), drawn here so the widget makes no request for images and
 * copies no one's artwork. The colours are data; a brand without a row gets a neutral mark.
 */
const SVG = 'http://www.w3.org/2000/svg';

/** Background, text colour and the text on the mark. */
const MARKS: Readonly<Record<string, readonly [string, string, string]>> = {
  VISA: ['#1a1f71', '#fff', 'VISA'],
  VISADEBIT: ['#1a1f71', '#fff', 'VISA DEBIT'],
  VISAELECTRON: ['#1a1f71', '#fff', 'ELECTRON'],
  VPAY: ['#1a1f71', '#fff', 'V PAY'],
  MASTER: ['#231f20', '#fff', 'MASTER'],
  MASTERDEBIT: ['#231f20', '#fff', 'DEBIT'],
  MAESTRO: ['#0b4da2', '#fff', 'MAESTRO'],
  AMEX: ['#006fcf', '#fff', 'AMEX'],
  DINERS: ['#004a97', '#fff', 'DINERS'],
  DISCOVER: ['#fff', '#231f20', 'DISCOVER'],
  JCB: ['#0b5a30', '#fff', 'JCB'],
  UNIONPAY: ['#c8102e', '#fff', 'UnionPay'],
  MIR: ['#0f754e', '#fff', 'MIR'],
  ELO: ['#000', '#fff', 'elo'],
  HIPERCARD: ['#b3131b', '#fff', 'HIPER'],
  PAYPAL: ['#003087', '#fff', 'PayPal'],
  DIRECTDEBIT_SEPA: ['#10298e', '#fc0', 'SEPA'],
  SOFORTUEBERWEISUNG: ['#ef809f', '#000', 'Sofort'],
  GIROPAY: ['#000268', '#fff', 'giropay'],
  IDEAL: ['#cc0066', '#fff', 'iDEAL'],
  ALIPAY: ['#1677ff', '#fff', 'Alipay'],
};

/** The mark of one brand, 40 × 26 (a card's proportions); `name` is what a screen reader hears. */
export function brandMark(brand: string, name: string): SVGSVGElement {
  const [background, color, text] = MARKS[brand] ?? ['#eef1f4', '#2b3440', name.slice(0, 8)];
  const svg = svgElement('svg', { viewBox: '0 0 40 26', width: '40', height: '26', class: `wpwl-brand-logo wpwl-brand-logo-${brand}`, role: 'img', 'aria-label': name, focusable: 'false' });
  const label = svgElement('text', { x: '20', y: '17', 'text-anchor': 'middle', fill: color, 'font-family': 'Arial,Helvetica,sans-serif', 'font-weight': '700', 'font-size': String(text.length > 6 ? 6 : 8.5), 'aria-hidden': 'true' });
  label.textContent = text;
  svg.append(svgElement('rect', { x: '.5', y: '.5', width: '39', height: '25', rx: '3.5', fill: background, stroke: '#9aa3ad', 'stroke-width': '1' }), label);
  return svg;
}

/** A card as such (the card and stored-card methods' tabs): an outline with a stripe, in the text colour. */
export function cardGlyph(): SVGSVGElement {
  const svg = svgElement('svg', { viewBox: '0 0 40 26', width: '40', height: '26', class: 'wpwl-brand-logo wpwl-card-glyph', 'aria-hidden': 'true', focusable: 'false' });
  svg.append(svgElement('rect', { x: '1', y: '1', width: '38', height: '24', rx: '3.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '2' }), svgElement('rect', { x: '1', y: '6', width: '38', height: '5', fill: 'currentColor' }), svgElement('rect', { x: '5', y: '16', width: '12', height: '3', rx: '1', fill: 'currentColor' }));
  return svg;
}

function svgElement<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Readonly<Record<string, string>>): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}
