// The only Bootstrap plugin the pages use: Collapse, for the navbar's toggler on narrow
// screens (data-bs-toggle="collapse" in templates/_nav.html). Importing it registers its
// data API on the document. Bundled by esbuild into static/js/bootstrap-parts.js
// (`npm run build:js`, run by make). To use another plugin, import it here the same way
// from bootstrap/js/src/ and add it to window.bootstrap.
import Collapse from "bootstrap/js/src/collapse.js";

window.bootstrap = { Collapse };
