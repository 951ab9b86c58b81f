/**
 * The fonts pins draw with, bundled into our own build so no pin needs the network:
 * - Font Awesome Free (the icon font): all.css holds today's class names (`fa-solid fa-star`)
 *   and the older short ones (`fas`, `fa`); v4-shims.css maps version 4 names that were renamed
 *   (`fa fa-star-o`). Vite copies the woff2 files next to our code (the library build inlines
 *   them into its CSS).
 * - Noto Sans bold, latin, for pin labels.
 * Any other icon font whose CSS the site adds works through `iconClasses` as well.
 */
import '@fortawesome/fontawesome-free/css/all.css';
import '@fortawesome/fontawesome-free/css/v4-shims.css';
import '@fontsource/noto-sans/latin-700.css';
