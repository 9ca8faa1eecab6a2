"""Fill locale/zh_Hans/LC_MESSAGES/django.po from the table below, then compile it.

Run after `manage.py makemessages -l zh_Hans --no-location -i ".venv/*" -i "api/*" …`. msgids are English;
game terms already carry their Chinese name, which the Chinese text keeps.
"""

import re
import subprocess
from pathlib import Path

from zh_history import TABLE as HISTORY  # rules pages, replays, round log, 记牌器, explained scores
from zh_table import TABLE  # the table page's texts (rooms/table_text.py)

ZH = {
    "Classic 叫庄保皇": "叫庄保皇", "Lianzhong 皇保保皇": "皇保保皇", "Qingdao 青岛保皇": "青岛保皇", "Lianzhong classic 联众经典": "联众经典",
    "Novice": "入门", "Normal": "普通", "Expert": "高手", "Bot level": "机器人水平", "bots": "机器人",
    "Choose the bot's level.": "请选择机器人的水平。",
    "Auto-play 托管 level": "托管水平", "Think time of 托管 seats and bots (seconds, about)": "托管和机器人的思考时间（约，秒）",
    "Nickname": "昵称", "Room name": "房间名", "Rules": "玩法",
    "Seconds to play": "出牌限时（秒）", "Seconds to bid": "叫庄限时（秒）", "Seconds to declare": "表态限时（秒）",
    "Hold sixes 憋6 (lianzhong, lianzhong classic)": "憋6（皇保保皇、联众经典）",
    "Grab solo 抢独 (lianzhong, lianzhong classic)": "抢独（皇保保皇、联众经典）",
    "Allow bots": "允许机器人", "Allow spectators": "允许旁观",
    "Bots to seat now": "现在加入的机器人",
    "Seconds to press Ready 准备 before the others may free the seat": "准备限时（秒，过时不准备的座位可被请出）", "This room does not allow bots.": "这个房间不允许机器人。",
    "%(name)s's table": "%(name)s的牌桌", "Choose a nickname of at most 20 characters.": "请起一个不超过 20 个字的昵称。",
    "Too many at once from your address: wait a while and try again.": "你的网络地址操作太频繁，请稍后再试。",
    "Too many requests": "请求太频繁",
    "Too many failed logins: try again in %(minutes)s minutes.": "登录失败次数太多，请 %(minutes)s 分钟后再试。",
    "This room does not allow spectators.": "这个房间不允许旁观。",
    "Pick a nickname or log in first.": "请先起个昵称或登录。", "Bots are not available on this server.": "本服务器没有机器人。",
    "This room does not allow spectators. Pick a nickname to sit down.": "这个房间不允许旁观。起个昵称入座吧。",
    "All time": "全部", "30 days": "30 天", "7 days": "7 天", "Today": "今天", "Baohuang": "保皇",
    "Skip to content": "跳到正文", "Site": "网站", "Lobby": "大厅", "Leaderboard": "排行榜", "Log out": "退出登录",
    "Log in": "登录", "Or play as a guest": "或者以游客身份玩", "All": "全部", "Period": "时间", "Show": "显示",
    "Points": "积分", "Hands": "局数", "Won": "胜局", "Win rate": "胜率", "Nobody has points for this choice yet.": "暂时没有积分。",
    "Welcome, %(name)s": "欢迎，%(name)s", "Your points and history": "我的积分和战绩", "Play as a guest": "游客入场",
    "Enter": "进入", "Have an account?": "有账号？", "New room": "开新房间", "Create room": "创建房间", "Rooms": "房间",
    "Room": "房间", "Seats": "座位", "playing": "对局中", "%(ready)s ready": "%(ready)s 人已准备", "Join": "加入", "Watch": "旁观",
    "No open rooms yet: create one.": "还没有房间，开一个吧。", "Hands played": "已玩局数",
    "Running total of points": "积分走势", "Running total of points, oldest to newest": "积分走势（从早到晚）",
    "Ledger": "积分记录", "When": "时间", "What": "内容", "Total": "累计", "No points yet.": "还没有积分。",
    "Hand score": "本局得分", "Left during a hand (强退)": "强退", "Tribute 进贡 turned into points": "进贡折分",
    "Adjustment": "调整",
    "Skill rating": "技术分", "Rank by": "排序", "At least … hands": "至少局数", "Rating": "技术分",
    "Skill rating: μ − 3σ (openskill)": "技术分：μ − 3σ（openskill 评分）",
    "Quick start": "快速开始", "Play with bots": "和机器人打一局", "Find players": "找人打",
    "Banned": "已封禁", "Reason: %(reason)s": "原因：%(reason)s",
    "More options": "更多选项", "Last hands": "最近的牌局", "Average place": "平均名次", "Points per hand": "每局积分",
    "Drawn": "平局", "Lost": "负局", "Emperor 皇帝": "皇帝", "Guard 保皇派": "保皇派", "Rebel 造反派": "造反派",
    "Solo 独": "独保（一打四）", "Skill rating after each rated hand": "每局之后的技术分",
    "Skill rating (μ − 3σ), oldest to newest": "技术分（μ − 3σ，从早到晚）", "Guest %(number)s": "游客%(number)s", "Choose the rules to play.": "请选择玩法。",
    "Card counter 记牌器": "记牌器", "Public records: anyone may replay this room's finished hands": "公开牌谱：任何人都可以回放本房间打完的牌局",
    "A moderator has banned you from this server.": "管理员已禁止你使用本服务器。",
    "Too many failed logins from your address: try again in %(minutes)s minutes.": "这个地址登录失败次数太多，请 %(minutes)s 分钟后再试。",
}

ZH.update(TABLE)
ZH.update(HISTORY)

PO = Path(__file__).resolve().parent / "zh_Hans" / "LC_MESSAGES" / "django.po"


def unquote(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in text else text


def unfuzz(po: str) -> str:
    """makemessages guesses the text of a new msgid from a similar old one (marked fuzzy,
    and the header's fuzzy mark removed below would make it count): drop every guess, so
    the table above fills the entry."""
    def drop(match):
        flags = f"#{match.group(1)}\n" if match.group(1) else ""
        return f'{flags}{match.group(3)}{match.group(4)}""'

    text = r'"(?:[^"\\]|\\.)*"\n'  # one quoted line of a msgid
    said = rf'(?:"(?:[^"\\]|\\.)+"\n|""\n(?:{text})+)'  # a msgid with words (not the header's "")
    return re.sub(rf'#, fuzzy((?:, [\w-]+)*)\n((?:#\| .*\n)*)(msgid {said}(?:msgid_plural (?:{text})+)?)'
                  r'(msgstr(?:\[0\])? )(?:".*"\n)*".*"', drop, po)


def fill(po: str) -> tuple[str, list[str]]:
    missing = []
    po = unfuzz(po)

    def replace(match):
        # A long msgid is wrapped over several quoted lines, after an empty first one.
        lines = match.group(1)
        key = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', lines)).replace('\\"', '"')
        if not key:
            return match.group(0)
        if key not in ZH:
            missing.append(key)
            return match.group(0)
        value = ZH[key].replace('"', '\\"')
        return f'msgid {lines}{match.group(2)}"{value}"'

    # msgstr "" of a text, msgstr[0] "" of a counted one (nplurals=1: the key is its singular)
    po = re.sub(r'msgid ((?:"(?:[^"\\]|\\.)*"\n)+)((?:msgid_plural (?:"(?:[^"\\]|\\.)*"\n)+)?msgstr(?:\[0\])? )""', replace, po)
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
