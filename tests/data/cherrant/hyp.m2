S 我们 去 公园 玩 了 。
T0-A0 我们 一 起 去 公园 玩 。
A 1 1|||M:ADV|||一 起|||REQUIRED|||-NONE-|||0
A 4 5|||R:AUX|||-NONE-|||REQUIRED|||-NONE-|||0

S 这 个 句子 看 不 懂 。
T0-A0 那 个 句子 看 不 懂 。
A 0 1|||S:PRON|||那|||REQUIRED|||-NONE-|||0

S 他 昨天 去 学校 。
T0 没有错误
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S 我 非常 喜欢 吃 苹果 和 香蕉 。
T0-A0 我 喜欢 非常 吃 梨子 和 橘子 。 ！
A 1 3|||W|||喜欢 非常|||REQUIRED|||-NONE-|||0
A 4 5|||S:NOUN|||梨子|||REQUIRED|||-NONE-|||0
A 6 7|||S:NOUN|||橘子|||REQUIRED|||-NONE-|||0
A 8 8|||M:PUNCT|||！|||REQUIRED|||-NONE-|||0

S 天气 很 好 。
T0-A0 天气 很 好 啊 。
A 3 3|||M:AUX|||啊|||REQUIRED|||-NONE-|||0

S 我 有 一 个 问题 问 你 。
T0-A0 我 有 一 个 问题 要 问 你 。
A 5 5|||M:VERB|||要|||REQUIRED|||-NONE-|||0
T1-A0 我 有 一 个 问题 问 。
A 6 7|||R:PRON|||-NONE-|||REQUIRED|||-NONE-|||1

S 我 很 高心 。
A 2 3|||S:SPELL|||高兴|||REQUIRED|||-NONE-|||0

S 今天 是 星期一 。
T0-A0 今天 是 星期一
A 3 4|||R:PUNCT|||-NONE-|||REQUIRED|||-NONE-|||0

S 他 把 书 把 放 在 桌子 上 了 。
T0-A0 他 把 书 放 在 桌子 上 了 。
A 2 4|||S:OTHER|||书|||REQUIRED|||-NONE-|||0
T0-A1 他 把 书 放 在 桌子 上 了 。
A 3 4|||R:PREP|||-NONE-|||REQUIRED|||-NONE-|||0

S 她 唱 歌 唱 得 好 听 。
T0-A0 她 唱 歌 唱 得 很 好 听 。
A 5 5|||M:ADV|||很|||REQUIRED|||-NONE-|||0
A 0 1|||UNK|||她|||REQUIRED|||-NONE-|||0
