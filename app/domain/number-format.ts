// Numbers with Indian digit grouping ("1,23,456.5"), for figures that are not money (money:
// formatRupees in ./money). Why one module: `Number#toLocaleString("en-IN")` builds a new
// Intl formatter on every call, 0.3-0.5 ms each on workerd, and a search page formatted two
// walks a card (issue 40, ADR 0066). A formatter holds only its locale and options, nothing
// of a user or a request, so one per option set serves every request of the isolate.

const WHOLE_OR_THREE = new Intl.NumberFormat("en-IN");
const ONE_DECIMAL = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 1 });

/** As `x.toLocaleString("en-IN")`: up to three decimals. */
export const formatIndianNumber = (x: number) => WHOLE_OR_THREE.format(x);

/** As `x.toLocaleString("en-IN", { maximumFractionDigits: 1 })`. */
export const formatIndianNumber1 = (x: number) => ONE_DECIMAL.format(x);
