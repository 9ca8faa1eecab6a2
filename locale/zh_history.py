"""The Chinese texts of "what happened" (issue 13): the rules pages, hand replays, the round
log, the card counter and the explained score sheet; merged into translate_zh.py's table."""

TABLE = {
    # rules pages
    "Rules of the game": "规则", "Rules of each preset": "各玩法规则", "All rules": "全部规则",
    "How each preset is played": "各玩法怎么打", "How to play": "玩法规则",
    # room options
    "Card counter 记牌器": "记牌器",
}
TABLE.update({
    # replays
    "Replay": "回放", "Back to the table": "回到牌桌", "Replay controls": "回放控制", "To the deal": "回到发牌",
    "Step back": "后退一步", "Step forward": "前进一步", "To the end": "跳到结尾", "Play back": "播放", "Pause": "暂停",
    "Speed": "速度", "Jump to": "跳到", "Round %(n)s": "第 %(n)s 轮", "Step of the hand": "本局进度",
    "Step %(n)s of %(total)s": "第 %(n)s / %(total)s 步", "The deal": "发牌", "calls": "叫庄",
    "passes the throne": "让皇", "takes the throne": "登基", "seizes the throne": "抢庄", "declares": "表态",
    "Fair deal": "公平发牌", "Commitment shown at the deal": "发牌时公布的承诺值", "Seed": "种子", "Salt": "盐",
    "The seed and salt match the commitment.": "种子和盐与承诺值相符。",
    "The seed and salt do NOT match the commitment.": "种子和盐与承诺值不符！",
    "The seed deals exactly these cards.": "用这个种子发出的正是这些牌。",
    "The seed does NOT deal these cards.": "用这个种子发不出这些牌！",
    "Hand %(n)s": "第 %(n)s 局",
})
TABLE.update({
    # the table: round log, card counter, 摊牌, explained score sheet
    "Round log": "出牌记录", "This round": "本轮", "Previous round": "上一轮", "Nothing played yet": "本轮还没有出牌",
    "Won by %(name)s": "%(name)s 扣牌", "Card counter": "记牌器", "Cards left in hand": "摊牌",
    "Watch the replay": "看回放", "Deal commitment": "发牌承诺值",
    "g = 6 − (%(e)s + %(g)s) = %(base)s": "g = 6 −（%(e)s + %(g)s）= %(base)s",
    "A = %(e)s + %(g)s = %(side)s": "皇保名次分 A = %(e)s + %(g)s = %(side)s",
    "%(solo)s, place %(place)s: %(points)s": "%(solo)s，第 %(place)s 名：%(points)s",
    "Seized, out first: +40": "抢庄，头科：+40", "Seized, not out first: −40": "抢庄，没走头科：−40",
    "places %(e)s + %(g)s = %(sum)s": "名次 %(e)s + %(g)s = %(sum)s", "alone, place %(place)s": "独打，第 %(place)s 名",
    "the winning side's place points doubled": "赢的一方名次分翻番", "everyone scores their place": "各按名次得分",
    "each rebel %(n)s": "每人 %(n)s", "the side splits its total evenly": "皇保平分",
    "revealed guard": "明保", "rebellion": "造反", "niu": "扭", "ti": "踢", "open solo": "明独",
    "hidden solo": "暗独", "seized solo": "抢独",
})
