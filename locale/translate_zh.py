"""Fill locale/zh_Hans/LC_MESSAGES/django.po from the table below, then compile it.

Run after `manage.py makemessages -l zh_Hans --no-location -i ".venv/*" -i "api/*" …`. msgids are English;
game terms already carry their Chinese name, which the Chinese text keeps.
"""

import re
import subprocess
from pathlib import Path

ZH = {
    "Classic 叫庄保皇": "叫庄保皇", "Lianzhong 皇保保皇": "皇保保皇", "Qingdao 青岛保皇": "青岛保皇",
    "Baseline": "基础", "Stronger": "较强", "Nickname": "昵称", "Room name": "房间名", "Rules": "玩法",
    "Seconds to play": "出牌限时（秒）", "Seconds to bid": "叫庄限时（秒）", "Seconds to declare": "表态限时（秒）",
    "Hold sixes 憋6 (lianzhong)": "憋6（皇保保皇）", "Grab solo 抢独 (lianzhong)": "抢独（皇保保皇）",
    "Auto-play 托管 policy": "托管策略", "Allow bots": "允许机器人", "Allow spectators": "允许旁观",
    "Seconds a 托管 seat or bot pauses before it plays": "托管和机器人出牌前的停顿（秒）",
    "Bots to seat now": "现在加入的机器人", "This room does not allow bots.": "这个房间不允许机器人。",
    "%(name)s's table": "%(name)s的牌桌", "Choose a nickname of at most 20 characters.": "请起一个不超过 20 个字的昵称。",
    "Pick a nickname or log in first.": "请先起个昵称或登录。", "Bots are not available on this server.": "本服务器没有机器人。",
    "Connecting…": "连接中…", "Connected": "已连接", "Reconnecting…": "重新连接中…", "Disconnected": "已断开",
    "Empty seat": "空位", "Sit here": "坐这里", "Add a bot": "加机器人", "bot": "机器人", "you": "我",
    "%(n)s left": "剩 %(n)s 张", "offline": "离线", "托管 auto-play": "托管中", "托管": "托管",
    "Cancel 托管": "取消托管", "托管 is locked on for this hand": "本局托管已锁定", "left": "已退出",
    "托管 in %(s)ss": "%(s)s 秒后托管", "皇": "皇", "保": "保", "独": "独", "锄头": "锄头",
    "Emperor 皇帝": "皇帝", "Guard 保皇派": "保皇派", "Alone 独": "独保", "Declared 反 (锄头)": "反（锄头）",
    "Pass": "过", "Yield": "让", "1st 头科": "头科", "2nd 二科": "二科", "3rd 三科": "三科", "4th 二落": "二落",
    "5th 大落": "大落", "Waiting for players: %(n)s of 5 seated": "等待玩家：已坐 %(n)s / 5",
    "All five seated": "五人已到齐", "Deal 开始": "开始", "Next hand 下一局": "下一局", "Leave": "离开",
    "Leaving now costs 40 points and 托管 plays your seat to the end. Leave?": "现在离开（强退）扣 40 分，本局由托管打完。确定离开吗？",
    "Choosing the emperor": "定皇帝", "Declarations": "表态", "Playing": "出牌中", "Hand over": "本局结束",
    "Hand %(n)s": "第 %(n)s 局", "%(name)s holds the crown 皇 (BJ*)": "%(name)s 拿着皇（BJ*）",
    "Passed the crown: %(names)s": "已让庄：%(names)s", "逼庄: %(name)s must call": "逼庄：%(name)s 必须叫庄",
    "%(name)s is offered the throne": "%(name)s 选择登基或让皇", "With the throne": "随皇位的牌",
    "Called card": "叫的牌", "Waiting for %(names)s": "等待 %(names)s", "Answered: %(names)s": "已表态：%(names)s",
    "%(name)s leads": "%(name)s 发牌", "Your lead": "轮到你发牌", "Your turn": "轮到你出牌",
    "%(name)s to play": "等待 %(name)s 出牌", "On the table": "桌上的牌", "Play 出牌": "出牌", "Pass 过": "过",
    "Yield 让": "让", "Hint 提示": "提示", "No play beats the set on the table": "没有压得过的牌",
    "By rank": "按大小排", "By count": "按张数排", "Clear": "清除", "Call 叫庄": "叫庄",
    "Pick the card to call": "选一张要叫的牌", "Cancel": "取消", "Pass the crown 让庄": "让庄",
    "Seize 抢庄": "抢庄", "Really seize? 确认抢庄": "确认抢庄？", "Take the throne 登基": "登基",
    "Pass the throne 让皇": "让皇", "No declaration": "不表态", "Stay hidden 暗保": "暗保", "Reveal 明保": "明保",
    "Stay hidden 暗独": "暗独", "Go open 明独": "明独", "Rebel 反": "反", "扭": "扭", "踢": "踢",
    "Grab solo 抢独": "抢独", "明保": "明保", "明独": "明独", "反": "反", "抢独": "抢独", "Score sheet": "计分表",
    "黄庄: nobody took the throne — redealing": "黄庄：没人当皇帝，重新发牌", "Place": "名次", "Player": "玩家",
    "Role": "身份", "Score": "得分", "Room total": "房间累计", "Running ledger of this room": "本房间累计积分",
    "The emperor's side wins": "皇帝一方胜", "A draw": "平局", "The rebels win": "造反派胜",
    "Tribute 进贡 owed at the next deal": "下一局发牌后进贡", "%(from)s → %(to)s: %(n)s card(s)": "%(from)s → %(to)s：%(n)s 张",
    "Tribute 进贡 paid at this deal": "本局发牌后的进贡", "买3: bought threes": "买3", "闷三": "闷三", "Close": "关闭",
    "This room has been dissolved.": "房间已解散。", "Back to the lobby": "回大厅", "You are watching": "你在旁观",
    "Pick a nickname to sit down": "起个昵称就能入座", "That does not beat the set on the table.": "压不过桌上的牌。",
    "A follow must have as many cards as the set on the table.": "跟牌的张数必须和桌上的一样。",
    "Those cards are not one set.": "这些牌不是一套牌。", "Your 3 goes last, alone, as a lead.": "3 只能最后单独发出。",
    "憋6: your 6s go last, all together.": "憋6：6 必须最后一起出。", "It is not your turn.": "还没轮到你。",
    "The table moved on; here it is again.": "牌局已更新，请再看一下。", "托管 is on: cancel it to play yourself.": "正在托管：先取消托管再出牌。",
    "托管 is locked on for this hand.": "本局托管已锁定。", "You lead: play a set.": "该你发牌：请出一套牌。",
    "The table needs five players.": "需要五个人才能开始。",
    "This room does not allow spectators. Pick a nickname to sit down.": "这个房间不允许旁观。起个昵称入座吧。",
    "All time": "全部", "30 days": "30 天", "7 days": "7 天", "Today": "今天", "Baohuang": "保皇",
    "Skip to content": "跳到正文", "Site": "网站", "Lobby": "大厅", "Leaderboard": "排行榜", "Log out": "退出登录",
    "Log in": "登录", "Or play as a guest": "或者以游客身份玩", "All": "全部", "Period": "时间", "Show": "显示",
    "Points": "积分", "Hands": "局数", "Won": "胜局", "Win rate": "胜率", "Nobody has points for this choice yet.": "暂时没有积分。",
    "Welcome, %(name)s": "欢迎，%(name)s", "Your points and history": "我的积分和战绩", "Play as a guest": "游客入场",
    "Enter": "进入", "Have an account?": "有账号？", "New room": "开新房间", "Create room": "创建房间", "Rooms": "房间",
    "Room": "房间", "Seats": "座位", "playing": "对局中", "Join": "加入", "Watch": "旁观",
    "No open rooms yet: create one.": "还没有房间，开一个吧。", "Hands played": "已玩局数",
    "Running total of points": "积分走势", "Running total of points, oldest to newest": "积分走势（从早到晚）",
    "Ledger": "积分记录", "When": "时间", "What": "内容", "Total": "累计", "No points yet.": "还没有积分。",
    "Table": "牌桌", "Your cards": "我的牌", "Actions": "操作",
    "Hand score": "本局得分", "Left during a hand (强退)": "强退", "Tribute 进贡 turned into points": "进贡折分",
    "Adjustment": "调整",
    "Chat": "聊天", "Chat messages": "聊天记录", "Chat message": "聊天内容", "Say something…": "说点什么…",
    "Send": "发送", "Quick phrases": "快捷语", "%(n)s new": "%(n)s 条新消息",
}

PO = Path(__file__).resolve().parent / "zh_Hans" / "LC_MESSAGES" / "django.po"


def unquote(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in text else text


def fill(po: str) -> tuple[str, list[str]]:
    missing = []

    def replace(match):
        msgid = match.group(1)
        key = msgid.replace('\\"', '"')
        if not key:
            return match.group(0)
        if key not in ZH:
            missing.append(key)
            return match.group(0)
        value = ZH[key].replace('"', '\\"')
        return f'msgid "{msgid}"\nmsgstr "{value}"'

    po = re.sub(r'msgid "((?:[^"\\]|\\.)*)"\nmsgstr ""', replace, po)
    po = po.replace("#, fuzzy\n", "", 1)
    return po, missing


if __name__ == "__main__":
    text, missing = fill(PO.read_text(encoding="utf-8"))
    text = re.sub(r'"Plural-Forms: .*\\n"', '"Plural-Forms: nplurals=1; plural=0;\\\\n"', text)
    text = text.replace('"Language: \\n"', '"Language: zh_Hans\\n"')
    text = re.sub(r'(plural=0;\\n"\n)(msgid)', r"\1\n\2", text)
    PO.write_text(text, encoding="utf-8")
    if missing:
        print("untranslated:", *missing, sep="\n  ")
    subprocess.run(["msgfmt", "--check-format", "-o", str(PO.with_suffix(".mo")), str(PO)], check=True)
