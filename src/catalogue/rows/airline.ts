import { defineRows, sameFormat } from '../define.js';
import { countryAlpha2, decimal, text } from '../formats.js';
import { date } from '../formats-time.js';
import { ORDER_DATA, conditional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: airline trip, passengers, legs. Every airline field is conditional. */

const PASSENGER = 'airline.passengers[n].';
const LEG = 'airline.passengers[n].legs[n].';
const money = () => decimal(10, true);
const any255 = () => text(255);

export const airlineRows: readonly ParameterRow[] = defineRows({ section: 'Airline', use: conditional(ORDER_DATA) }, [
  ...sameFormat('airline.', ['totalTaxAmount', 'totalFeesAmount', 'totalFareAmount'], money(), { code: '100.550.303' }),
  ['airline.ticketIssueDate', date({ sample: '2034-05-01' })],
  ...sameFormat('airline.', ['ticketIssueAddress', 'thirdPartyBooking', 'bookingtype', 'ticketDeliveryMethod', 'bookingRefNum', 'agentName', 'agentCode'], any255()),
  ...sameFormat(PASSENGER, ['type', 'name', 'ticketRestricted', 'ticketNumber', 'status', 'phone', 'frequentFlyerNumber', 'email', 'dob', 'checkDigit'], any255()),
  [`${PASSENGER}residenceCountry`, countryAlpha2()],
  ...sameFormat(LEG, [
    'ticketNumber', 'stopOverAllowed', 'restrictions', 'flightNumber', 'fareBasis', 'exchangeTicketNum', 'departureCountry',
    'departureAirport', 'airlineName', 'airlineCode', 'departureTime', 'arrivalCountry', 'arrivalAirport', 'arrivalTime',
    'couponNumber', 'classOfService', 'carrierCode',
  ], any255()),
  ...sameFormat(LEG, ['taxAmount', 'feesAmount', 'fareAmount', 'departureTaxAmount'], money(), { code: '100.550.303' }),
  ...sameFormat(LEG, ['departureDate', 'arrivalDate'], date({ sample: '2034-06-01' })),
  [`${LEG}timeToDeparture`, text(10), { sample: '31' }],
]);
