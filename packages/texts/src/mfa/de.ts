import type { Texts } from '../en.ts';

export const mfaDe: Texts['mfa'] = {
  heading: 'Bestätigung in zwei Schritten',
  titles: {
    reminder: 'Bestätigung in zwei Schritten einrichten',
    setup: 'Bestätigung in zwei Schritten einrichten',
    totp: 'Authenticator-App einrichten',
    phone: 'Telefon einrichten',
    verify: 'Bestätigungscode eingeben',
    recoveryCodes: 'Ihre Wiederherstellungscodes',
    manage: 'Bestätigung in zwei Schritten',
    reset: 'Bestätigung in zwei Schritten zurücksetzen',
    resetDone: 'Bestätigung in zwei Schritten zurückgesetzt',
    mobileSetup: 'Mobile App einrichten',
    mobileVerify: 'Anmeldung auf dem Smartphone bestätigen',
    mobileFailed: 'Anmeldung nicht bestätigt',
    mobileSetupFailed: 'Einrichtung der Mobile App fehlgeschlagen',
    mobileReplace: 'Gerät ersetzen',
  },
  common: {
    stepOf: 'Schritt {{step}} von {{total}}',
    codeLabel: '6-stelliger Code',
    codeHint: 'Geben Sie die 6 Ziffern ohne Leerzeichen ein.',
    verify: 'Bestätigen',
    continue: 'Fortfahren',
    next: 'Weiter',
    back: 'Zurück',
    cancel: 'Abbrechen',
    logOut: 'Abmelden',
    copy: 'In die Zwischenablage kopieren',
    copied: 'In die Zwischenablage kopiert.',
    copyFailed: 'Das Kopieren ist fehlgeschlagen. Markieren und kopieren Sie den Text bitte selbst.',
    trustDevice: {
      one: 'Diesem Gerät vertrauen: {{count}} Tag lang nicht erneut fragen',
      other: 'Diesem Gerät vertrauen: {{count}} Tage lang nicht erneut fragen',
    },
    working: 'Bitte warten…',
  },
  reminder: {
    heading: 'Schützen Sie Ihr Konto mit der Bestätigung in zwei Schritten',
    intro:
      'Zusätzlich zu Ihrem Passwort bestätigen Sie mit einem Code von Ihrem Telefon, dass Sie es sind. Selbst wer Ihr Passwort kennt, kann sich ohne diesen Code nicht anmelden.',
    daysLeft: {
      one: 'Die Bestätigung in zwei Schritten wird in {{count}} Tag verpflichtend.',
      other: 'Die Bestätigung in zwei Schritten wird in {{count}} Tagen verpflichtend.',
    },
    lastDay: 'Die Bestätigung in zwei Schritten wird innerhalb eines Tages verpflichtend.',
    setUp: 'Jetzt einrichten',
    later: 'Später erinnern',
    confirm: {
      heading: 'Bestätigung in zwei Schritten später einrichten?',
      body: 'Sie können vorerst ohne sie fortfahren. Wir erinnern Sie bei Ihrer nächsten Anmeldung erneut.',
      confirm: 'Ja, später erinnern',
      cancel: 'Jetzt einrichten',
    },
  },
  benefits: {
    heading: 'Warum es sich lohnt',
    minutes: 'Die Einrichtung dauert nur wenige Minuten.',
    trusted: {
      one: 'Auf einem vertrauenswürdigen Gerät benötigen Sie nur einmal am Tag einen Code.',
      other: 'Auf einem vertrauenswürdigen Gerät benötigen Sie nur alle {{count}} Tage einen Code.',
    },
    landline: 'Kein Smartphone? Ein Festnetzanschluss genügt: Wir rufen Sie an und sagen Ihnen den Code an.',
  },
  choose: {
    heading: 'Bestätigung in zwei Schritten einrichten',
    intro: 'Wählen Sie, wie Sie Ihre Bestätigungscodes erhalten möchten.',
    required: 'Ihre Organisation verlangt die Bestätigung in zwei Schritten, bevor Sie fortfahren können.',
    app: 'Authenticator-App',
    appHint:
      'Codes aus einer App wie Google Authenticator oder Microsoft Authenticator. Funktioniert auch offline.',
    phone: 'SMS oder Anruf',
    phoneHint: 'Codes per SMS oder per Anruf, der auch einen Festnetzanschluss erreicht.',
    skip: 'Vorerst überspringen',
    skipDays: {
      one: 'Vorerst überspringen (noch {{count}} Tag)',
      other: 'Vorerst überspringen (noch {{count}} Tage)',
    },
  },
  totp: {
    download: {
      heading: 'Authenticator-App installieren',
      body: 'Installieren Sie eine Authenticator-App auf Ihrem Telefon, zum Beispiel Google Authenticator oder Microsoft Authenticator. Wenn Sie bereits eine haben, fahren Sie mit dem nächsten Schritt fort.',
      ios: 'Authenticator-App für das iPhone laden (App Store)',
      android: 'Authenticator-App für Android laden (Google Play)',
    },
    scan: {
      heading: 'Konto zur App hinzufügen',
      body: 'Fügen Sie in der App ein Konto hinzu und scannen Sie diesen QR-Code.',
      qrAlt: 'QR-Code zum Hinzufügen von {{account}} zu einer Authenticator-App',
      manual:
        'Der Code lässt sich nicht scannen? Geben Sie stattdessen diesen Einrichtungsschlüssel in der App ein:',
      keyLabel: 'Einrichtungsschlüssel',
      account: 'Konto: {{account}}',
      issuer: 'Aussteller: {{issuer}}',
      openApp: 'In meiner Authenticator-App öffnen',
      copyKey: 'Einrichtungsschlüssel kopieren',
    },
    code: {
      heading: 'Code aus der App eingeben',
      body: 'Geben Sie den 6-stelligen Code ein, den die App für {{issuer}} anzeigt.',
    },
    done: {
      heading: 'Ihre Authenticator-App ist eingerichtet',
      body: 'Ab sofort geben Sie bei der Anmeldung einen Code aus der App ein.',
    },
  },
  phone: {
    number: {
      heading: 'Telefonnummer hinzufügen',
      method: 'Wie möchten Sie Codes erhalten?',
      sms: 'Textnachricht (SMS)',
      voice: 'Anruf',
      countryCode: 'Ländervorwahl',
      countryCodeHint: 'Zum Beispiel +49 für Deutschland.',
      phoneNumber: 'Telefonnummer',
      voiceHint:
        'Verwenden Sie für Anrufe eine Nummer, unter der Sie direkt erreichbar sind, nicht über eine Telefonzentrale.',
      send: 'Code senden',
      call: 'Mich anrufen',
    },
    code: {
      heading: 'Code eingeben, den wir Ihnen gesendet haben',
      sms: 'Wir haben eine SMS mit einem 6-stelligen Code an {{phone}} gesendet.',
      voice: 'Wir rufen {{phone}} an und sagen einen 6-stelligen Code an.',
      changeNumber: 'Andere Nummer verwenden',
    },
    done: {
      heading: 'Ihr Telefon ist eingerichtet',
      body: 'Ab sofort senden wir bei der Anmeldung einen Code an {{phone}}.',
    },
  },
  resend: {
    question: 'Keinen Code erhalten?',
    sms: 'Erneut per SMS senden',
    call: 'Mich zurückrufen',
    wait: 'Sie können {{when}} einen neuen Code anfordern.',
    sent: 'Ein neuer Code ist unterwegs.',
  },
  verify: {
    heading: 'Bestätigungscode eingeben',
    totp: 'Öffnen Sie Ihre Authenticator-App und geben Sie den 6-stelligen Code für {{issuer}} ein.',
    sms: 'Wir haben eine SMS mit einem 6-stelligen Code an {{phone}} gesendet.',
    voice: 'Wir rufen {{phone}} an und sagen einen 6-stelligen Code an.',
    useRecovery: 'Stattdessen einen Wiederherstellungscode verwenden',
    useCode: 'Stattdessen einen Bestätigungscode verwenden',
    recoveryLabel: 'Wiederherstellungscode',
    recoveryHint:
      'Einer der Codes, die Sie bei der Einrichtung der Bestätigung in zwei Schritten gespeichert haben, zum Beispiel k7m2p-9qxw4.',
    lostAccess: 'Telefon verloren? Bestätigung in zwei Schritten zurücksetzen',
  },
  recovery: {
    heading: 'Wiederherstellungscodes speichern',
    body: 'Wenn Sie Ihr Telefon verlieren, können Sie sich stattdessen mit einem dieser Codes anmelden. Jeder Code funktioniert einmal. Bewahren Sie sie sicher auf: Sie werden nicht erneut angezeigt.',
    listLabel: 'Wiederherstellungscodes',
    copy: 'Codes kopieren',
    download: 'Codes herunterladen',
    print: 'Codes drucken',
    fileIntro:
      'Wiederherstellungscodes für die Bestätigung in zwei Schritten bei {{name}}, erstellt am {{date}}. Jeder Code funktioniert einmal, anstelle eines Bestätigungscodes.',
    saved: 'Ich habe meine Wiederherstellungscodes gespeichert',
    savedRequired: 'Bestätigen Sie, dass Sie Ihre Wiederherstellungscodes gespeichert haben.',
    remaining: 'Verbleibende Wiederherstellungscodes: {{count}}',
    regenerate: 'Neue Wiederherstellungscodes erstellen',
    regenerated: 'Dies sind Ihre neuen Wiederherstellungscodes. Die alten funktionieren nicht mehr.',
  },
  manage: {
    heading: 'Die Bestätigung in zwei Schritten ist aktiviert',
    app: 'Sie verwenden eine Authenticator-App.',
    phone: 'Sie erhalten Codes unter {{phone}}.',
    reset: 'Bestätigung in zwei Schritten zurücksetzen',
  },
  reset: {
    heading: 'Bestätigung in zwei Schritten zurücksetzen',
    body: 'Dadurch werden Ihre Authenticator-App oder Ihr Telefon, Ihre Wiederherstellungscodes und alle vertrauenswürdigen Geräte entfernt. Anschließend können Sie die Bestätigung in zwei Schritten neu einrichten.',
    proof:
      'Geben Sie zur Bestätigung einen Code Ihrer aktuellen Methode oder einen Ihrer Wiederherstellungscodes ein.',
    sendCode: 'Code an mich senden',
    confirm: 'Bestätigung in zwei Schritten zurücksetzen',
    notEnrolled:
      'Für Ihr Konto ist keine Bestätigung in zwei Schritten eingerichtet, daher gibt es nichts zurückzusetzen.',
    done: {
      heading: 'Die Bestätigung in zwei Schritten wurde zurückgesetzt',
      body: 'Ihre Methoden, Wiederherstellungscodes und vertrauenswürdigen Geräte wurden entfernt.',
      setUpAgain: 'Neu einrichten',
      continue: 'Fortfahren',
    },
  },
  errors: {
    codeInvalid: 'Ungültiger Code. Bitte versuchen Sie es erneut.',
    codeFormat: 'Geben Sie die 6 Ziffern des Codes ein.',
    recoveryFormat: 'Geben Sie einen Wiederherstellungscode wie k7m2p-9qxw4 ein.',
    codeExpired: 'Dieser Code ist abgelaufen. Bitte fordern Sie einen neuen an.',
    attemptsExceeded:
      'Sie haben die zulässigen Versuche für diesen Code überschritten. Bitte fordern Sie einen neuen Code an.',
    rateLimited: 'Sie haben dies zu oft versucht. Bitte versuchen Sie es {{when}} erneut.',
    rateLimitedLater: 'Sie haben dies zu oft versucht. Bitte versuchen Sie es später erneut.',
    retryNow: 'Sie können es jetzt erneut versuchen.',
    resendTooSoon: 'Bitte warten Sie {{duration}}, bevor Sie einen weiteren Code anfordern.',
    countryCodeInvalid: 'Ungültige Ländervorwahl',
    phoneInvalid: 'Diese Nummer ist ungültig',
    phoneNotMobile: 'Diese Nummer kann keine SMS empfangen. Wählen Sie stattdessen einen Anruf.',
    phoneBlocked: 'Diese Telefonnummer ist gesperrt. Bitte wenden Sie sich an den Support.',
    deliveryRetryable:
      'Ihr Code konnte gerade nicht zugestellt werden. Bitte versuchen Sie es später erneut.',
    deliveryFailed: 'Ihr Code konnte nicht zugestellt werden. Bitte wenden Sie sich an den Support.',
    phoneRejected: 'Diese Telefonnummer kann keine Codes empfangen. Bitte verwenden Sie eine andere Nummer.',
    telecomError:
      'Ein unerwarteter Fehler des Telefonanbieters ist aufgetreten. Bitte versuchen Sie es erneut.',
    lineBusy: 'Die Leitung ist besetzt.',
    unknown: 'Ein Fehler ist aufgetreten. Bitte versuchen Sie es erneut.',
  },
  mobile: {
    choose: {
      title: 'Mobile App',
      hint: 'Bestätigen Sie jede Anmeldung auf Ihrem Smartphone, indem Sie eine Zahl auswählen. Kein Code zum Abtippen.',
    },
    register: {
      heading: 'Mobile App einrichten',
      intro:
        'Mit der Mobile App bestätigen Sie jede Anmeldung auf Ihrem Smartphone, indem Sie die Zahl auswählen, die auf dem Bildschirm angezeigt wird.',
      step1: 'Installieren Sie unsere Mobile App auf Ihrem Smartphone.',
      step2:
        'Fügen Sie in der App Ihr Konto hinzu und scannen Sie den QR-Code, den wir Ihnen als Nächstes zeigen.',
      step3: 'Danach bestätigen Sie Ihre Anmeldungen in der App.',
      start: 'Smartphone verbinden',
      alternatives: 'Andere Möglichkeiten zur Bestätigung',
      useApp: 'Stattdessen eine Authenticator-App verwenden',
      usePhone: 'Stattdessen SMS oder Anruf verwenden',
    },
    waiting: {
      heading: 'Smartphone verbinden',
      body: 'Öffnen Sie die Mobile App auf Ihrem Smartphone und scannen Sie diesen QR-Code.',
      qrAlt: 'QR-Code zum Verbinden der Mobile App mit Ihrem Konto',
      manual:
        'Sie können den Code nicht scannen? Kopieren Sie diesen Einrichtungslink und fügen Sie ihn in die App ein:',
      uriLabel: 'Einrichtungslink',
      copy: 'Einrichtungslink kopieren',
      expires: 'Der Code läuft {{when}} ab.',
      expiresSoon: 'Der Code läuft {{when}} ab.',
      status: 'Warten auf die Verbindung mit Ihrem Smartphone…',
      connected: 'Ihr Smartphone ist verbunden. Die Einrichtung wird abgeschlossen…',
      starting: 'Der Code wird vorbereitet…',
      confirm: {
        heading: 'Verbindung mit dem Smartphone abbrechen?',
        body: 'Der Code auf diesem Bildschirm funktioniert dann nicht mehr. Sie können jederzeit neu beginnen.',
        confirm: 'Ja, zurück',
        cancel: 'Weiter warten',
      },
    },
    done: {
      heading: 'Ihre Mobile App ist eingerichtet',
      body: 'Ab jetzt bestätigen Sie Ihre Anmeldungen in der App auf {{device}}.',
    },
    setupError: {
      timeoutHeading: 'Die Einrichtung ist abgelaufen',
      timeoutBody:
        'Ihr Smartphone hat sich nicht innerhalb von zwei Minuten verbunden, daher ist der Code abgelaufen. Melden Sie sich ab und erneut an, um neu zu beginnen.',
      failedHeading: 'Die Mobile App konnte nicht eingerichtet werden',
      failedBody:
        'Die App konnte nicht bestätigen, dass es sich um Ihr Smartphone handelt. Melden Sie sich ab und erneut an, um neu zu beginnen.',
      retry: 'Erneut versuchen',
      continue: 'Weiter zur App',
    },
    verify: {
      heading: 'Anmeldung auf dem Smartphone bestätigen',
      sentTo: 'Wir haben eine Anfrage an die Mobile App auf {{device}} gesendet.',
      sentToPhone: 'Wir haben eine Anfrage an die Mobile App auf Ihrem Smartphone gesendet.',
      numberLabel: 'In der App auszuwählende Zahl',
      instruction: 'Wählen Sie {{number}} in der App aus',
      expires: 'Die Anfrage läuft {{when}} ab.',
      sending: 'Anfrage wird an Ihr Smartphone gesendet…',
      approved: 'Bestätigt. Sie werden angemeldet…',
      newRequest: 'Neue Anfrage senden',
      useRecovery: 'Stattdessen einen Wiederherstellungscode verwenden',
      useApproval: 'Stattdessen auf dem Smartphone bestätigen',
    },
    failure: {
      timeoutHeading: 'Die Anfrage ist abgelaufen',
      timeoutBody: 'Die Anfrage wurde in der App nicht rechtzeitig beantwortet.',
      rejectedHeading: 'Die Anmeldung wurde abgelehnt',
      rejectedBody:
        'Die Anmeldung wurde in der App abgelehnt. Wenn Sie sich nicht anmelden wollten, wenden Sie sich an den Kundenservice.',
      failedHeading: 'Die Anmeldung konnte nicht bestätigt werden',
      failedBody:
        'In der App wurde eine andere Zahl ausgewählt. Senden Sie eine neue Anfrage und wählen Sie die Zahl aus, die auf diesem Bildschirm angezeigt wird.',
      rateLimitedHeading: 'Zu viele Anfragen',
      rateLimitedBody:
        'Es wurden zu viele Anmeldeanfragen an Ihr Smartphone gesendet. Bitte warten Sie, bevor Sie eine weitere senden.',
      retryIn: 'Sie können {{when}} eine neue Anfrage senden.',
      retryNow: 'Sie können jetzt eine neue Anfrage senden.',
      contact: 'Kundenservice kontaktieren',
    },
    manage: {
      device: 'Sie bestätigen Anmeldungen in der Mobile App auf {{device}}.',
      replace: 'Dieses Gerät ersetzen',
    },
    replace: {
      heading: 'Gerät ersetzen',
      body: 'Um die App auf einem neuen Smartphone einzurichten, bestätigen Sie zuerst eine Anfrage auf Ihrem aktuellen Gerät, {{device}}. Es funktioniert nicht mehr, sobald das neue Smartphone verbunden ist.',
      fresh:
        'Sie haben sich gerade eben bestätigt. Verbinden Sie jetzt Ihr neues Smartphone; Ihr aktuelles Gerät, {{device}}, funktioniert nicht mehr, sobald das neue verbunden ist.',
      send: 'Anfrage an mein aktuelles Gerät senden',
      connect: 'Neues Smartphone verbinden',
      cancel: 'Abbrechen',
    },
    reset: {
      body: 'Dadurch werden die Mobile App, Ihre Wiederherstellungscodes und alle vertrauenswürdigen Geräte von Ihrem Konto entfernt. Danach können Sie die Bestätigung in zwei Schritten neu einrichten.',
      proof:
        'Bestätigen Sie dazu eine Anfrage in der Mobile App oder geben Sie einen Ihrer Wiederherstellungscodes ein.',
      send: 'Anfrage an mein Smartphone senden',
    },
    errors: {
      setupFailed: 'Die Mobile App konnte nicht eingerichtet werden. Bitte beginnen Sie erneut.',
      setupTimeout: 'Der Einrichtungscode ist abgelaufen. Bitte beginnen Sie erneut.',
      deviceExists:
        'Für Ihr Konto ist bereits ein Gerät eingerichtet. Um es zu ersetzen, bestätigen Sie zuerst mit Ihrem aktuellen Gerät.',
      noDevice: 'Für Ihr Konto ist keine Mobile App eingerichtet.',
      closed: 'Diese Anfrage ist nicht mehr offen. Bitte senden Sie eine neue.',
      challengePending:
        'Eine andere Anmeldung wartet bereits auf Bestätigung auf Ihrem Smartphone. Beantworten Sie sie in der App oder warten Sie, bis sie abläuft.',
      rateLimited: 'Zu viele Anmeldeanfragen. Bitte versuchen Sie es {{when}} erneut.',
      rateLimitedLater: 'Zu viele Anmeldeanfragen. Bitte versuchen Sie es später erneut.',
      notOffered: 'Die Mobile App ist für Ihr Konto nicht verfügbar.',
    },
  },
  messages: {
    sms: '{{code}} ist Ihr Bestätigungscode für {{name}}. Er ist {{minutes}} Minuten gültig. Geben Sie ihn niemals weiter.',
    voice: 'Guten Tag. Hier ist {{name}}. Ihr Bestätigungscode lautet: {{digits}}.',
    pushTitle: 'Anmeldung bei {{name}}',
    pushBody: 'Öffnen Sie die App, um diese Anmeldung zu bestätigen oder abzulehnen.',
  },
};
