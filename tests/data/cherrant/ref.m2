S 我们 去 公园 玩 了 。
T0-A0 我们 一起 去 公园 玩 。
A 1 1|||M:ADV|||一起|||REQUIRED|||-NONE-|||0
A 4 5|||R:AUX|||-NONE-|||REQUIRED|||-NONE-|||0
T0-A1 我们一起 去 公园 玩 。
A 0 1|||S:PRON|||我们 一起|||REQUIRED|||-NONE-|||0
A 4 5|||R:AUX|||-NONE-|||REQUIRED|||-NONE-|||0
T1 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S 这 个 句子 看 不 懂 。
T0 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||0

S 他 昨天 去 学校 。
T0 无法标注
A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||0
T1-A0 他 昨天 去 了 学校 。
A 3 3|||M:AUX|||了|||REQUIRED|||-NONE-|||1

S 我 非常 喜欢 吃 苹果 和 香蕉 。
T0-A0 我 喜欢 非常 吃 梨 和 香蕉 。
A 1 3|||W|||喜欢 非常|||REQUIRED|||-NONE-|||0
A 4 5|||S:NOUN|||梨|||REQUIRED|||-NONE-|||0
A 6 7|||UNK|||香蕉|||REQUIRED|||-NONE-|||0

S 天气 很 好 。
T0-A0 天气 非常 好 。
A 1 2|||S:ADV|||非常|||REQUIRED|||-NONE-|||0
T1-A0 天气 真 好 。
A 1 2|||S:ADV|||真|||REQUIRED|||-NONE-|||1
T2-A0 今天 天气 很 好 。
A 0 0|||M:NOUN|||今天|||REQUIRED|||-NONE-|||2
T3-A0 天气 很 好 啊 。
A 3 3|||M:AUX|||啊|||REQUIRED|||-NONE-|||3

S 我 有 一 个 问题 问 你 。
T0-A0 我 有 一 个 问题 问 。
A 6 7|||R:PRON|||-NONE-|||REQUIRED|||-NONE-|||0
T1-A0 我 有 一 个 问题 想 问 你 。
A 5 5|||M:VERB|||想|||REQUIRED|||-NONE-|||1

S 我 很 高心 。
T0-A0 我 很 高兴 。
A 2 3|||S:SPELL|||高兴|||REQUIRED|||-NONE-|||0

S 今天 是 星期一 。
T0 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S 他 把 书 把 放 在 桌子 上 了 。
T0-A0 他 把 书 放 在 桌子 上 。
A 3 4|||R:PREP|||-NONE-|||REQUIRED|||-NONE-|||0
A 8 9|||R:AUX|||-NONE-|||REQUIRED|||-NONE-|||0
T1-A0 他 把 书 放 在 了 桌子 上 。
A 3 4|||R:PREP|||-NONE-|||REQUIRED|||-NONE-|||1
A 6 6|||M:AUX|||了|||REQUIRED|||-NONE-|||1
A 8 9|||R:AUX|||-NONE-|||REQUIRED|||-NONE-|||1

S 她 唱 歌 唱 得 好 听 。
T0-A0 她 唱 歌 唱 得 很 好 听 。
A 5 5|||M:ADV|||很|||REQUIRED|||-NONE-|||0
T0-A1 她 唱 歌 唱 得 很 好 听 。
A 4 5|||S:OTHER|||得 很|||REQUIRED|||-NONE-|||0
T1-A0 她 唱 歌 唱 得 非 常 好 听 。
A 5 5|||M:ADV|||非 常|||REQUIRED|||-NONE-|||1
