/** leaflet-fa-markers ships no types: it is a script that adds `L.icon.fontAwesome` to the global `L`. */
declare module 'leaflet-fa-markers';
