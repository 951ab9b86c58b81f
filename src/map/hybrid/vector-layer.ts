import L from 'leaflet';
import { MaplibreGL } from '@maplibre/maplibre-gl-leaflet';
import type { Map as MapLibreMap, MapOptions } from 'maplibre-gl';
import type { VectorLayerConfig } from '../../config/schema.ts';
import { releaseBeforeRemove } from '../maplibre-map.ts';
import { toMapLibreZoom } from './zoom.ts';

/** The plugin's own members this layer builds on (it declares none of them in its types). */
interface PluginInternals {
  _map: L.Map | null;
  _glMap: (MapLibreMap & { _actualCanvas?: HTMLCanvasElement }) | null;
  _container: HTMLDivElement | undefined;
  _offset: L.Point;
  _zooming: boolean;
  _initGL(): void;
  _resizeContainer(): void;
  options: VectorLayerConfig & { padding: number };
}

/** Leaflet's own way of telling where a place will be drawn once a zoom animation ends. */
type LeafletMapInternals = L.Map & { _latLngToNewLayerPoint(latlng: L.LatLng, zoom: number, center: L.LatLng): L.Point };

/** The plugin's methods this layer calls on from its own. */
const plugin = MaplibreGL.prototype as unknown as {
  _initGL(this: unknown): void;
  _zoomEnd(this: unknown): void;
};

/** What the layer tells its owner. */
export interface VectorLayerHooks {
  /** MapLibre's map is made: the place to wire its events. */
  onMapCreated(map: MapLibreMap): void;
  /** MapLibre could not start (no WebGL): the layer stays on the Leaflet map, empty. */
  onFailed(error: unknown): void;
}

/**
 * The vector map as a Leaflet layer: `@maplibre/maplibre-gl-leaflet`'s layer with its six
 * options, and fixes for what the plugin gets wrong:
 *
 * - Alignment. The plugin centres MapLibre on `getCenter()`, but Leaflet draws markers and tiles
 *   from a pixel origin rounded to whole pixels, and rounds the layer's position too: the two
 *   could be up to a pixel apart. Here MapLibre is centred on the point Leaflet itself draws at
 *   the middle of the layer's box, and the box has a whole-pixel size.
 * - Resizes. The plugin follows only Leaflet's `resize`, which Leaflet fires for the window; and
 *   it resynchronises one animation frame later, which never comes while the page is hidden.
 *   Here a resize of the map's container (fullscreen, a layout change) resizes Leaflet, the box
 *   and MapLibre at once; one that happened while the page was hidden is applied as it shows
 *   again (the observer reports then), and the page becoming visible again redraws.
 * - Zoom animations. During Leaflet's CSS zoom animation the canvas is scaled like an image. The
 *   plugin works its transform out from the view's centre with roundings of its own, so the
 *   canvas could end up most of a pixel from where Leaflet puts the pins and from where MapLibre
 *   then redraws: the map drifted off the pins while zooming and jumped as the zoom ended. Here
 *   the box's corner goes exactly where Leaflet draws that place at the new zoom.
 * - Same frame. MapLibre draws a camera change in its next animation frame, while Leaflet moves
 *   its pins and the box in the current one (a drag's update, each step of a pinch or a fly): for
 *   that frame the vector map was off by all of the move since the last one, a flicker while
 *   dragging and a lag behind the fingers. Here MapLibre draws at once whenever it follows.
 * - Pointer events. With `interactive: false` nothing of the layer takes them; with `true`,
 *   MapLibre's map events fire (clicks on features) while Leaflet keeps every gesture:
 *   MapLibre's own pan and zoom handlers stay off, or two maps would fight over one drag.
 * - WebGL. When MapLibre cannot start, the plugin throws from `addTo` and later breaks on
 *   every move; here the failure is reported, and the layer stays, empty and harmless.
 * - Removal frees MapLibre's map (its WebGL context and workers) and every listener.
 * - Attribution is Pinmap's (the adapter gathers it), so the layer gives Leaflet none.
 */
export class VectorLayer extends MaplibreGL {
  private readonly hooks: VectorLayerHooks;
  private resizeObserver: ResizeObserver | undefined;
  private failed = false;

  constructor(layer: VectorLayerConfig, mapOptions: Omit<MapOptions, 'container'>, hooks: VectorLayerHooks) {
    super({
      ...mapOptions,
      // The plugin hands its options to MapLibre too: these are the layer's.
      updateInterval: layer.updateInterval,
      padding: layer.padding,
      pane: layer.pane,
      // Leaflet adds each word as a class: blanks alone are no class (an empty one would throw).
      ...(layer.className?.trim() ? { className: layer.className } : {}),
      interactive: layer.interactive,
      // Leaflet drives the camera: MapLibre's gesture handlers stay off even when interactive.
      dragPan: false,
      dragRotate: false,
      scrollZoom: false,
      boxZoom: false,
      doubleClickZoom: false,
      touchZoomRotate: false,
      touchPitch: false,
      keyboard: false,
      attributionControl: false,
    } as unknown as L.LeafletMaplibreGLOptions);
    this.hooks = hooks;
  }

  private get internals(): PluginInternals {
    return this as unknown as PluginInternals;
  }

  /** MapLibre's map; undefined before the layer is on a map, after removal, or when WebGL failed. */
  get glMap(): MapLibreMap | undefined {
    return this.internals._glMap ?? undefined;
  }

  override onAdd(map: L.Map): this {
    const self = this.internals;
    const pane = this.options.pane ?? 'tilePane';
    // Leaflet keeps panes in a plain object: a name such as 'constructor' is no pane until made.
    if (!Object.hasOwn(map.getPanes(), pane)) map.createPane(pane);
    super.onAdd(map);
    // The Leaflet container is the map for screen readers (the engine names it): MapLibre's canvas is a drawing in it.
    for (const attribute of ['role', 'aria-label']) this.glMap?.getCanvas().removeAttribute(attribute);
    if (self._container) {
      self._container.classList.add('pinmap-vector-layer');
      self._container.classList.toggle('pinmap-vector-layer-inert', !self.options.interactive);
    }
    // Only a real change: Leaflet's invalidateSize forgets the exact centre even when the size
    // stayed, and the observer's first call (on observe) would round the camera by a pixel.
    this.resizeObserver = new ResizeObserver(() => {
      const element = map.getContainer();
      if (!map.getSize().equals([element.clientWidth, element.clientHeight])) map.invalidateSize({ pan: true });
    });
    this.resizeObserver.observe(map.getContainer());
    document.addEventListener('visibilitychange', this.onVisibilityChange);
    return this;
  }

  override onRemove(map: L.Map): this {
    this.resizeObserver?.disconnect();
    this.resizeObserver = undefined;
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
    if (this.failed) {
      this.internals._container?.remove();
      return this;
    }
    const glMap = this.internals._glMap;
    if (glMap) releaseBeforeRemove(glMap);
    super.onRemove(map); // removes the box and calls MapLibre's remove(): context, workers, listeners
    return this;
  }

  /** Leaflet's attribution control gets nothing: Pinmap's control credits the style's sources. */
  override getAttribution(): string {
    return '';
  }

  /** The layer's box: the view plus padding on each side, in whole pixels. */
  override getSize(): L.Point {
    return this.map().getSize().multiplyBy(1 + this.internals.options.padding * 2).round();
  }

  private map(): L.Map {
    return this.internals._map!;
  }

  /** Where the box's top-left corner goes, in layer pixels (whole pixels, as Leaflet places it). */
  private topLeft(): L.Point {
    const map = this.map();
    return map.containerPointToLayerPoint([0, 0]).subtract(map.getSize().multiplyBy(this.internals.options.padding)).round();
  }

  /**
   * Points MapLibre's camera at what Leaflet draws at the middle of the box, at Leaflet's zoom (in
   * MapLibre's terms), and draws it now: in the frame in which Leaflet moves its pins and the box, not the next one.
   */
  private followLeaflet(): void {
    const self = this.internals;
    const map = self._map;
    const gl = self._glMap;
    if (!map || !gl || !self._container) return;
    // (The plugin stores a plain {x, y} as the position; L.point makes it a Point either way.)
    const at = L.point(L.DomUtil.getPosition(self._container)).add(this.getSize().divideBy(2));
    const center = map.layerPointToLatLng(at);
    gl.jumpTo({ center: [center.lng, center.lat], zoom: toMapLibreZoom(map.getZoom()) });
    gl.redraw();
  }

  /** Moves the box to cover the view, and the camera with it (unless a zoom animation runs). */
  resync(): void {
    const self = this.internals;
    if (!self._map || !self._glMap || !self._container) return;
    self._offset = self._map.containerPointToLayerPoint([0, 0]);
    if (self._zooming) return;
    L.DomUtil.setPosition(self._container, this.topLeft());
    this.followLeaflet();
  }

  // The plugin's hooks, replaced (see the class comment for why).

  /** @internal */ _initGL(): void {
    try {
      plugin._initGL.call(this);
    } catch (error) {
      this.failed = true;
      this.internals._glMap = null;
      this.hooks.onFailed(error);
      return;
    }
    this.hooks.onMapCreated(this.internals._glMap!);
  }

  /** @internal */ _update(): void {
    this.resync();
  }

  /** @internal */ _transformGL(): void {
    this.followLeaflet();
  }

  /** @internal A zoom step of a fly or a pinch: the box stays, the camera follows. */
  _pinchZoom(): void {
    this.followLeaflet();
  }

  /**
   * @internal A CSS zoom animation starts: the canvas is moved and scaled so that each place on
   * it ends where Leaflet draws that place at the new zoom (the box's corner goes to its new layer
   * point, exactly as Leaflet places markers and image overlays).
   */
  _animateZoom(event: L.ZoomAnimEvent): void {
    const self = this.internals;
    const map = self._map as LeafletMapInternals | null;
    const canvas = self._glMap?._actualCanvas;
    if (!map || !canvas || !self._container) return;
    const corner = L.point(L.DomUtil.getPosition(self._container));
    const cornerThen = map._latLngToNewLayerPoint(map.layerPointToLatLng(corner), event.zoom, event.center);
    L.DomUtil.setTransform(canvas, cornerThen.subtract(corner), map.getZoomScale(event.zoom));
  }

  /** @internal */ _zoomEnd(): void {
    if (this.internals._glMap) plugin._zoomEnd.call(this);
  }

  /**
   * @internal The end of a CSS zoom animation: Leaflet's own `zoomend` (see `_zoomEnd`) has
   * already put the camera right, so there is nothing left to do a frame later.
   */
  _transitionEnd(): void {}

  /** @internal Leaflet's size changed: resize the box and MapLibre now, not a frame later. */
  _resize(): void {
    const gl = this.internals._glMap;
    if (!gl) return;
    this.internals._resizeContainer();
    gl.resize();
    this.resync();
  }

  private readonly onVisibilityChange = () => {
    if (document.visibilityState !== 'visible') return;
    this._resize();
    this.internals._glMap?.triggerRepaint();
  };
}
