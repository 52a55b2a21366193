/** paymentWidgets.js: the hosted payment widget (COPYandPAY) as merchants embed it. docs/widget.md. */
import { boot } from './dom/boot.js';

boot();
