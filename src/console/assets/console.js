// The console's progressive enhancement. Every page works without this script (forms post, links
// navigate); the script only adds conveniences. Loaded as a module from /console/assets (CSP: self).
document.documentElement.classList.add('js');
