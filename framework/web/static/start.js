/* Starts the table page once every framework file and the game's client are loaded (a file
 * of its own: the page holds no inline script, for the Content-Security-Policy). */
window.Arena.start();
