import type { Texts } from './en.ts';
import { lifecycleTh } from './lifecycle/th.ts';
import { mfaTh } from './mfa/th.ts';

export const th: Texts = {
  common: {
    appName: 'Keycard',
    loading: 'กำลังโหลด…',
    next: 'ถัดไป',
    back: 'ย้อนกลับ',
    close: 'ปิด',
    showPassword: 'แสดงรหัสผ่าน',
    hidePassword: 'ซ่อนรหัสผ่าน',
    required: 'จำเป็นต้องกรอกข้อมูลในช่องนี้',
    invalidEmail: 'อีเมลนี้ดูเหมือนจะไม่ถูกต้อง',
    networkError: 'เราพบปัญหาในการติดต่อเซิร์ฟเวอร์ของเรา โปรดลองอีกครั้ง',
    contactSupport: 'ติดต่อฝ่ายสนับสนุน',
    backToLogin: 'กลับไปที่หน้าเข้าสู่ระบบ',
    language: 'ภาษา',
    logoAlt: 'โลโก้ {{name}}',
    errorSummary: 'โปรดแก้ไขข้อมูลในช่องที่ทำเครื่องหมายไว้',
  },
  titles: {
    login: 'เข้าสู่ระบบ',
    loginPassword: 'กรอกรหัสผ่านของคุณ',
    accountCreated: 'สร้างบัญชีแล้ว',
    logout: 'กำลังออกจากระบบ',
    authenticate: 'กำลังเข้าสู่ระบบ',
    authenticated: 'เข้าสู่ระบบแล้ว',
    authorize: 'กำลังไปยังแอปพลิเคชันของคุณ',
    notFound: 'ไม่พบหน้าเว็บ',
    unknownError: 'เกิดข้อผิดพลาด',
    accountDisabled: 'บัญชีถูกปิดใช้งาน',
    partnerSso: 'ลงชื่อเข้าใช้ผ่านพาร์ทเนอร์',
  },
  login: {
    email: {
      heading: 'เข้าสู่ระบบ',
      intro: 'โปรดกรอกที่อยู่อีเมลของบัญชีของคุณ',
      label: 'อีเมล',
      remember: 'จดจำอีเมลของฉัน',
      submit: 'ถัดไป',
    },
    password: {
      heading: 'กรอกรหัสผ่านของคุณ',
      back: 'กลับไปที่อีเมล',
      change: 'เปลี่ยนอีเมล',
      signedInAs: 'กำลังเข้าสู่ระบบในชื่อ {{email}}',
      label: 'รหัสผ่าน',
      forgot: 'ลืมรหัสผ่าน?',
      submit: 'เข้าสู่ระบบ',
      trouble: 'มีปัญหาในการเข้าสู่ระบบ?',
    },
    notices: {
      loggedOut: 'คุณออกจากระบบแล้ว',
      resetPassword: 'เปลี่ยนรหัสผ่านของคุณเรียบร้อยแล้ว โปรดเข้าสู่ระบบด้วยรหัสผ่านใหม่',
      accountCreated: 'สร้างบัญชีของคุณเรียบร้อยแล้ว โปรดเข้าสู่ระบบเพื่อเริ่มต้นใช้งาน',
      reauthenticate: 'เพื่อความปลอดภัยของคุณ โปรดกรอกรหัสผ่านอีกครั้ง',
    },
    errors: {
      invalidCredentials: 'อีเมลหรือรหัสผ่านไม่ถูกต้อง โปรดลองอีกครั้ง',
    },
  },
  authenticate: {
    loading: 'กำลังนำคุณเข้าสู่ระบบ…',
  },
  authenticated: {
    loading: 'กำลังนำคุณไปยังแอปพลิเคชัน…',
  },
  partnerSso: {
    loading: 'กำลังนำคุณเข้าสู่ระบบ…',
    networkDialog: {
      heading: 'ปัญหาการเชื่อมต่อ',
      body: 'เราพบปัญหาในการติดต่อเซิร์ฟเวอร์ของเรา โปรดตรวจสอบการเชื่อมต่อ แล้วโหลดหน้านี้ใหม่เพื่อลองอีกครั้ง',
      reload: 'โหลดใหม่',
    },
  },
  logout: {
    loading: 'กำลังออกจากระบบ…',
  },
  errors: {
    notFound: {
      heading: 'ไม่พบหน้าเว็บ',
      body: 'หน้าที่คุณกำลังค้นหาไม่มีอยู่หรือถูกย้ายไปแล้ว',
    },
    unknown: {
      heading: 'เกิดข้อผิดพลาด',
      body: 'เราไม่สามารถดำเนินการตามคำขอของคุณได้ โปรดกลับไปที่หน้าเข้าสู่ระบบแล้วลองอีกครั้ง',
    },
    accountDisabled: {
      heading: 'บัญชีของคุณถูกล็อก',
      body: 'เพื่อความปลอดภัยของคุณ บัญชีนี้ถูกระงับการเข้าสู่ระบบไว้ชั่วคราว โปรดรีเซ็ตรหัสผ่านหรือติดต่อฝ่ายสนับสนุนเพื่อให้กลับมาเข้าถึงบัญชีได้อีกครั้ง',
      reset: 'รีเซ็ตรหัสผ่าน',
    },
  },
  lifecycle: lifecycleTh,
  mfa: mfaTh,
};
