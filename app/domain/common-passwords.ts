// The most common passwords from public breach lists (8 characters or longer, since
// shorter ones are refused anyway). Compared case-insensitively.
const COMMON = `password password1 password123 password12 passw0rd p@ssw0rd p@ssword 12345678 123456789 1234567890
 12341234 11111111 00000000 87654321 88888888 99999999 11223344 12121212 123123123 1q2w3e4r 1q2w3e4r5t qwertyuiop
 qwerty123 qwerty12 qwertyui qwerty1234 asdfghjk asdfghjkl zxcvbnm1 zaq12wsx 1qaz2wsx iloveyou iloveyou1 sunshine
 princess football baseball superman batman123 trustno1 welcome1 welcome123 letmein1 letmein123 admin123 administrator
 abc12345 abcd1234 abcdefgh changeme computer internet whatever starwars michael1 jennifer dragon123 monkey123
 shadow12 master123 freedom1 mustang1 charlie1 jordan23 harley12 ranger12 loveyou1 hello123 india123 india@123
 bangalore bengaluru mumbai123 delhi123 cricket1 sachin10 krishna1 ganesh123 om123456 loopride loopride1 carpool1
 password! qwerty!@ 12345678a a1234567 aa123456 asdf1234 zxcvbnm123 q1w2e3r4 test1234 testtest guest123 default1`
  .split(/\s+/)
  .filter(Boolean);

const SET = new Set(COMMON.map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return SET.has(password.toLowerCase());
}
