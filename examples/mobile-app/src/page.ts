import { renderDocument } from '@keycard/demo-app/html';

/**
 * The app's one page. Static markup with every control and its label; the script
 * (client/main.ts) shows the pairing or the paired section and fills in the sign-in requests.
 */
export function renderAppPage(): string {
  return renderDocument(
    'Sign-in requests',
    `<h1>Keycard device</h1>
<p class="intro">An example of the partner mobile app, in your browser: pair it with your account, then approve sign-ins by picking the number the sign-in screen shows.</p>
<noscript><p>This app needs JavaScript.</p></noscript>
<p id="app-error" class="error" role="alert"></p>
<p id="announcer" class="visually-hidden" role="status"></p>

<section id="pairing" aria-labelledby="pairing-title" hidden>
<h2 id="pairing-title">Pair with your account</h2>
<p>When the sign-in page asks you to set up the mobile app, copy the enrolment link shown under its QR code and paste it here, or read the QR code.</p>
<form id="pair-form" novalidate>
<label for="enrolment-uri">Enrolment link</label>
<textarea id="enrolment-uri" name="enrolmentUri" rows="3" spellcheck="false" autocomplete="off" aria-describedby="enrolment-uri-hint"></textarea>
<p id="enrolment-uri-hint" class="hint">It starts with keycard-mfa://enrol?</p>
<label for="device-name">Device name</label>
<input id="device-name" name="deviceName" maxlength="64" autocomplete="off">
<button id="pair-button" type="submit">Pair this device</button>
</form>
<h3>Or read the QR code</h3>
<label for="qr-file">QR code image</label>
<input id="qr-file" type="file" accept="image/*">
<p><button id="camera-start" type="button">Scan with camera</button>
<button id="camera-stop" type="button" hidden>Stop camera</button></p>
<video id="camera" muted playsinline aria-label="Camera preview" hidden></video>
</section>

<section id="paired" aria-labelledby="paired-title" hidden>
<h2 id="paired-title">Sign-in requests</h2>
<p id="paired-summary"></p>
<p id="connection" class="connection"></p>
<div id="challenges"></div>
<p id="no-challenges">No sign-in request is waiting.</p>
<p><button id="reconnect" type="button" hidden>Reconnect</button>
<button id="forget" type="button" class="secondary">Forget this pairing</button></p>
</section>
<script type="module" src="/app.js"></script>`,
    'Keycard device (example)',
  );
}
