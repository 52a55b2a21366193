import type { SupportedLocale } from '../../connectors/simulator/pages/index.js';

/**
 * The texts of the simulated wallet sheet (wallet-sheet-page.ts), in the simulator pages'
 * languages; the banner, "Merchant", "Amount", "Cancel" and "ending in" come from theirs.
 * A type with every key makes a language without all texts fail to compile.
 */
export interface WalletSheetMessages {
  readonly title: string;
  readonly intro: string;
  readonly cardLegend: string;
  readonly approves: string;
  readonly declines: string;
  readonly pay: string;
  readonly sentTitle: string;
  readonly sentText: string;
  readonly cancelledTitle: string;
  readonly cancelledText: string;
}

export const WALLET_SHEET_MESSAGES: Readonly<Record<SupportedLocale, WalletSheetMessages>> = Object.freeze({
  en: {
    title: 'Pay with {wallet}',
    intro: 'A simulation of the {wallet} payment sheet: the test system stands in for the wallet, no real wallet is asked and no money moves.',
    cardLegend: 'Choose a test card stored in the wallet',
    approves: 'approved',
    declines: 'declined',
    pay: 'Pay {amount}',
    sentTitle: 'Payment sent',
    sentText: 'Back to the shop…',
    cancelledTitle: 'Payment cancelled',
    cancelledText: 'You can close this window.',
  },
  de: {
    title: 'Mit {wallet} bezahlen',
    intro: 'Eine Simulation des Zahlungsfensters von {wallet}: Das Testsystem vertritt die Wallet, keine echte Wallet wird gefragt und es fließt kein Geld.',
    cardLegend: 'Wählen Sie eine Testkarte aus der Wallet',
    approves: 'wird genehmigt',
    declines: 'wird abgelehnt',
    pay: '{amount} zahlen',
    sentTitle: 'Zahlung gesendet',
    sentText: 'Zurück zum Shop…',
    cancelledTitle: 'Zahlung abgebrochen',
    cancelledText: 'Sie können dieses Fenster schließen.',
  },
  fr: {
    title: 'Payer avec {wallet}',
    intro: 'Une simulation de la fenêtre de paiement {wallet} : le système de test remplace le portefeuille, aucun vrai portefeuille n’est sollicité et aucun argent n’est transféré.',
    cardLegend: 'Choisissez une carte de test du portefeuille',
    approves: 'acceptée',
    declines: 'refusée',
    pay: 'Payer {amount}',
    sentTitle: 'Paiement envoyé',
    sentText: 'Retour à la boutique…',
    cancelledTitle: 'Paiement annulé',
    cancelledText: 'Vous pouvez fermer cette fenêtre.',
  },
  es: {
    title: 'Pagar con {wallet}',
    intro: 'Una simulación de la hoja de pago de {wallet}: el sistema de pruebas sustituye al monedero, no se consulta ningún monedero real y no se mueve dinero.',
    cardLegend: 'Elija una tarjeta de prueba del monedero',
    approves: 'aprobada',
    declines: 'rechazada',
    pay: 'Pagar {amount}',
    sentTitle: 'Pago enviado',
    sentText: 'Volviendo a la tienda…',
    cancelledTitle: 'Pago cancelado',
    cancelledText: 'Puede cerrar esta ventana.',
  },
  it: {
    title: 'Paga con {wallet}',
    intro: 'Una simulazione della finestra di pagamento di {wallet}: il sistema di test sostituisce il wallet, nessun wallet reale viene interpellato e non si muove denaro.',
    cardLegend: 'Scegli una carta di prova del wallet',
    approves: 'approvata',
    declines: 'rifiutata',
    pay: 'Paga {amount}',
    sentTitle: 'Pagamento inviato',
    sentText: 'Ritorno al negozio…',
    cancelledTitle: 'Pagamento annullato',
    cancelledText: 'Puoi chiudere questa finestra.',
  },
  nl: {
    title: 'Betalen met {wallet}',
    intro: 'Een simulatie van het betaalvenster van {wallet}: het testsysteem speelt de wallet, er wordt geen echte wallet gevraagd en er wordt geen geld overgemaakt.',
    cardLegend: 'Kies een testkaart uit de wallet',
    approves: 'goedgekeurd',
    declines: 'geweigerd',
    pay: '{amount} betalen',
    sentTitle: 'Betaling verzonden',
    sentText: 'Terug naar de winkel…',
    cancelledTitle: 'Betaling geannuleerd',
    cancelledText: 'U kunt dit venster sluiten.',
  },
});
