/** What a 3-D Secure v2 authentication needs besides the card: the shopper's browser and billing address. */
export const BROWSER = {
  'customer.browser.acceptHeader': 'text/html',
  'customer.browser.language': 'de-DE',
  'customer.browser.screenHeight': '1080',
  'customer.browser.screenWidth': '1920',
  'customer.browser.timezone': '-60',
  'customer.browser.userAgent': 'Mozilla/5.0 (X11; Linux x86_64)',
  'customer.browser.javaEnabled': 'false',
  'billing.street1': 'Hauptstrasse 1',
  'billing.city': 'Berlin',
  'billing.postcode': '10115',
  'billing.country': 'DE',
} as const;
